/**
 * The console's only assets, served from the package itself (no CDN, nothing to fetch at run time):
 * one stylesheet and one small script (the copy buttons). They ship in the compiled build, so
 * `npm ci` builds them like everything else.
 */

export const STYLESHEET = `
:root { --ink: #1b1f24; --muted: #57606a; --line: #d0d7de; --accent: #0b5cad; --bg: #f6f8fa; --bad: #a40e26; --good: #1a7f37; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; color: var(--ink); background: #fff; }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible { outline: 3px solid #f2a900; outline-offset: 2px; }
.skip { position: absolute; left: -999px; } .skip:focus { left: 8px; top: 8px; background: #fff; padding: 4px 8px; z-index: 2; }
header.top { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 24px; padding: 10px 24px; background: #0d2a4a; color: #fff; }
header.top a { color: #fff; }
header.top .brand { font-weight: 700; margin-right: 8px; }
header.top nav ul { display: flex; flex-wrap: wrap; gap: 2px 16px; list-style: none; margin: 0; padding: 0; }
nav a[aria-current="page"] { font-weight: 700; text-decoration: underline; text-underline-offset: 5px; }
header.top .who { margin-left: auto; display: flex; gap: 12px; align-items: center; font-size: 14px; }
header.top .who button { background: transparent; color: #fff; border: 1px solid #fff; }
main { max-width: 1100px; margin: 0 auto; padding: 20px 24px 48px; }
h1 { font-size: 26px; margin: 8px 0 16px; } h2 { font-size: 20px; margin: 28px 0 10px; } h3 { font-size: 17px; margin: 16px 0 6px; }
form.stack { display: grid; gap: 12px; max-width: 480px; }
form.row { display: flex; flex-wrap: wrap; gap: 12px; align-items: flex-end; }
label { display: grid; gap: 4px; font-weight: 600; font-size: 14px; }
/* A label beside its select (not around it): the select's name is the label alone, without its options. */
.field { display: grid; gap: 4px; }
.field label { display: block; }
input, select, textarea { font: inherit; padding: 6px 8px; border: 1px solid #8c959f; border-radius: 4px; min-width: 0; }
button { font: inherit; font-weight: 600; padding: 6px 14px; border-radius: 4px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; }
button.secondary { background: #fff; color: var(--accent); }
button.danger { background: #fff; color: var(--bad); border-color: var(--bad); }
form.inline { display: inline; }
table { border-collapse: collapse; width: 100%; margin: 8px 0 16px; font-size: 14px; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--bg); }
.notice { padding: 10px 14px; border: 1px solid var(--line); border-left: 6px solid var(--accent); background: var(--bg); margin: 12px 0; }
.notice.error { border-left-color: var(--bad); }
.notice.ok { border-left-color: var(--good); }
.notice.warning { border-left-color: #9a6700; }
.level { font-weight: 700; padding: 0 6px; border: 2px solid; border-radius: 4px; white-space: nowrap; }
.level.high { color: var(--bad); } .level.medium { color: #8a4600; } .level.low { color: var(--good); }
.secret { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; background: var(--bg); border: 1px dashed #8c959f; padding: 8px; word-break: break-all; }
.match { border: 1px solid var(--line); border-radius: 6px; padding: 10px 14px; margin: 10px 0; }
.muted { color: var(--muted); font-size: 14px; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 8px 0; }
dl.facts dt { font-weight: 600; } dl.facts dd { margin: 0; }
.pager { display: flex; gap: 16px; align-items: center; list-style: none; padding: 0; margin: 8px 0; }
.side { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 13px; }
`;

export const SCRIPT = `
document.addEventListener('click', function (event) {
  var button = event.target.closest('button[data-copy]');
  if (!button) return;
  var source = document.getElementById(button.getAttribute('data-copy'));
  if (!source) return;
  var text = source.textContent.trim();
  var done = function () { button.textContent = 'Copied'; };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(done, function () {});
  } else {
    var range = document.createRange();
    range.selectNodeContents(source);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    if (document.execCommand('copy')) done();
  }
});
`;
