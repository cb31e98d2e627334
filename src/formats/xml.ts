/**
 * Streaming XML: saxes reads the file, and only the elements an adapter asks for are built into
 * small trees, so a 100 MB list streams in the memory of its largest record.
 */
import { createReadStream, promises as fs } from 'node:fs';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import iconv from 'iconv-lite';
import { SaxesParser } from 'saxes';
import { clean } from '../text/index.js';

/** An element: local name, attributes by local name, its own text (trimmed), child elements. */
export interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  text: string;
  children: XmlNode[];
}

export interface XmlHandler {
  /**
   * Called for every element opened outside a captured tree, with the names of its ancestors.
   * Return true to capture the element; `node` receives it, whole, once it closes.
   */
  open(name: string, attrs: Record<string, string>, ancestors: readonly string[]): boolean;
  node(node: XmlNode, ancestors: readonly string[]): void;
}

/** Publishers change namespaces between releases (OFAC did in 2024), so names are matched without prefix. */
export function localName(qname: string): string {
  const colon = qname.indexOf(':');
  return colon === -1 ? qname : qname.slice(colon + 1);
}

/** The encoding the XML declaration names, else UTF-8. */
async function declaredEncoding(file: string): Promise<string> {
  const handle = await fs.open(file, 'r');
  try {
    const buf = Buffer.alloc(200);
    const { bytesRead } = await handle.read(buf, 0, 200, 0);
    const head = buf
      .subarray(0, bytesRead)
      .toString('latin1')
      .replace(/^\xEF\xBB\xBF/, '');
    return /^<\?xml[^>]*encoding=["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1]?.toLowerCase() ?? 'utf-8';
  } finally {
    await handle.close();
  }
}

/**
 * Streams an XML file. A file that is not well-formed (a truncated download above all) is an
 * error naming the file, so it can never pass for a shorter list; an error thrown by the handler
 * (an adapter refusing the document) keeps its own message.
 */
export async function streamXml(file: string, handler: XmlHandler): Promise<void> {
  const encoding = await declaredEncoding(file);
  const parser = new SaxesParser({ xmlns: false, position: true });
  const ancestors: string[] = [];
  // The open elements of the captured tree; captured[0] is its root.
  const captured: XmlNode[] = [];
  const textParts: string[][] = [];
  let sawRoot = false;
  let failure: Error | undefined;
  parser.on('error', (err) => {
    failure ??= err;
  });
  parser.on('opentag', (tag) => {
    sawRoot = true;
    const name = localName(tag.name);
    const attrs: Record<string, string> = {};
    for (const [key, value] of Object.entries(tag.attributes)) {
      if (key === 'xmlns' || key.startsWith('xmlns:')) continue;
      attrs[localName(key)] = String(value);
    }
    if (captured.length > 0 || handler.open(name, attrs, ancestors)) {
      const node: XmlNode = { name, attrs, text: '', children: [] };
      captured[captured.length - 1]?.children.push(node);
      captured.push(node);
      textParts.push([]);
    }
    ancestors.push(name);
  });
  const onText = (text: string): void => {
    if (captured.length > 0) textParts[textParts.length - 1]!.push(text);
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', () => {
    ancestors.pop();
    if (captured.length === 0) return;
    const node = captured.pop()!;
    node.text = textParts.pop()!.join('').trim();
    if (captured.length === 0) handler.node(node, ancestors);
  });

  const raw = createReadStream(file);
  const input: NodeJS.ReadableStream =
    encoding === 'utf-8' || encoding === 'utf8' ? raw : raw.pipe(iconv.decodeStream(encoding));
  const utf8 = new StringDecoder('utf8');
  let first = true;
  try {
    for await (const chunk of input) {
      let text = typeof chunk === 'string' ? chunk : utf8.write(chunk as Buffer);
      if (first && text) {
        text = text.replace(/^\uFEFF/, '');
        first = false;
      }
      if (text) parser.write(text);
      if (failure) break;
    }
    if (!failure) {
      const rest = utf8.end();
      if (rest) parser.write(rest);
      parser.close();
    }
  } finally {
    raw.destroy();
  }
  const base = path.basename(file);
  if (failure) throw new Error(`${base}: malformed XML, not well-formed (${failure.message.split('\n')[0]})`);
  if (!sawRoot) throw new Error(`${base}: no XML root element`);
}

/**
 * Streams the children of the root element one by one, the shape of most list files (one element
 * per listing). `root` sees the root element first and may refuse the document by throwing.
 */
export function streamXmlChildren(
  file: string,
  handler: { root?(name: string, attrs: Record<string, string>): void; child(node: XmlNode): void },
): Promise<void> {
  return streamXml(file, {
    open(name, attrs, ancestors) {
      if (ancestors.length === 0) {
        handler.root?.(name, attrs);
        return false;
      }
      return ancestors.length === 1;
    },
    node: (node) => handler.child(node),
  });
}

/** First child with that local name. */
export function child(node: XmlNode | undefined, name: string): XmlNode | undefined {
  return node?.children.find((c) => c.name === name);
}

/** All children with that local name. */
export function children(node: XmlNode | undefined, name: string): XmlNode[] {
  return node ? node.children.filter((c) => c.name === name) : [];
}

/** Cleaned text of the first child with that name; undefined when absent, blank or a placeholder. */
export function childText(node: XmlNode | undefined, name: string): string | undefined {
  return clean(child(node, name)?.text);
}

/** All descendants with that local name, depth first. */
export function descendants(node: XmlNode | undefined, name: string, out: XmlNode[] = []): XmlNode[] {
  if (!node) return out;
  for (const childNode of node.children) {
    if (childNode.name === name) out.push(childNode);
    descendants(childNode, name, out);
  }
  return out;
}

/** Cleaned text of every descendant with that name, blanks dropped. */
export function descendantTexts(node: XmlNode | undefined, name: string): string[] {
  return descendants(node, name)
    .map((n) => clean(n.text))
    .filter((t): t is string => t !== undefined);
}
