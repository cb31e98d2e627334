/**
 * The words that tell what a name part is, beside the words themselves: honorifics and titles
 * (dropped), particles and connectors (weighed low), patronymic endings, numerals written as words
 * or roman numbers, and digits standing in for letters. normalizeName reads each part through these.
 */

// Honorifics and titles, in the languages lists and customers write them. Dropped before matching.
export const HONORIFICS = new Set(
  `mr mrs ms miss mister madam madame dr doctor prof professor sir dame lord lady hon honorable honourable
   rev reverend fr father sheikh shaikh sheik shaykh haji hajji hadji al-haj alhaj mullah mulla maulana maulvi mawlawi
   mawlavi qari hafiz imam ayatollah hojatoleslam sayed sayyed sayyid syed seyed
   general gen colonel col lieutenant lt major maj captain capt commander admiral brigadier sergeant
   president presidente prezident president prasident praesident predsjednik presedintele presiden elnok
   prime minister premier king queen prince princess his her excellency he
   herr frau monsieur senor senora sr sra don dona signor signora gospodin jr jnr snr`.split(/\s+/),
);

// Particles and connectors that carry little identity (weighted low, never required).
export const PARTICLES = new Set(
  `al el ul bin ibn bint ben abu abou bou ould van von der den de del della di da das dos du la le los las
   y e und and et the of for und & a an mac`.split(/\s+/),
);

export function isParticle(t: string): boolean {
  return PARTICLES.has(t);
}

/** A word with a patronymic's ending (Vladimirovich, Ivanovna, Ogly), wherever it stands. */
export function isPatronymicForm(t: string): boolean {
  return t.length > 6 && PATRONYMIC.test(t);
}

export function isHonorific(t: string): boolean {
  return HONORIFICS.has(t);
}

const PATRONYMIC =
  /(ovich|evich|ovych|evych|ovic|evic|ovics|evics|owitsch|ewitsch|ovitch|evitch|ovitj|evitj|ovitsj|owicz|ewicz|ovici|evici|ovitx|avich|avіch|ovna|evna|ivna|ychna|ichna|ogly|oglu|kyzy|qizi)$/;

/** The daughter's forms: never a surname. */
export const FEMALE_PATRONYMIC = /(ovna|evna|ivna|ychna|ichna|kyzy|qizi)$/;

export const ROMAN = new Map([
  ['ii', '2'],
  ['iii', '3'],
  ['iv', '4'],
  ['vi', '6'],
  ['vii', '7'],
  ['viii', '8'],
  ['ix', '9'],
  ['xi', '11'],
  ['xii', '12'],
  ['xiii', '13'],
  ['xiv', '14'],
  ['xv', '15'],
  ['xvi', '16'],
  ['xvii', '17'],
  ['xviii', '18'],
  ['xix', '19'],
  ['xx', '20'],
]);
/** One-letter numerals only in names known not to be persons' (for persons they are initials). */
export const ROMAN_LETTER = new Map([
  ['i', '1'],
  ['v', '5'],
  ['x', '10'],
]);

export const NUMBER_WORDS = new Map<string, number>(
  (
    'one 1 two 2 three 3 four 4 five 5 six 6 seven 7 eight 8 nine 9 ten 10 eleven 11 twelve 12 thirteen 13 fourteen 14 ' +
    'fifteen 15 sixteen 16 seventeen 17 eighteen 18 nineteen 19 twenty 20 thirty 30 forty 40 fourty 40 fifty 50 sixty 60 ' +
    'seventy 70 eighty 80 ninety 90 first 1 second 2 third 3'
  )
    .split(' ')
    .reduce<[string, number][]>((acc, v, i, arr) => (i % 2 === 0 ? [...acc, [v, Number(arr[i + 1])]] : acc), []),
);

const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '9': 'g' };

/** "sech1n" -> "sechin": a word with one or two digits standing in for letters. */
export function deLeet(t: string): string | undefined {
  if (!/\d/.test(t)) return undefined;
  const digits = t.replace(/\D/g, '').length;
  // Digits for letters sit inside a word; one at an end is a serial or tranche mark ("AHL1", "AR16").
  if (digits === 0 || digits > 2 || t.length < 4 || !/^[a-z]/.test(t) || !/[a-z]$/.test(t)) return undefined;
  if (/^\d+[a-z]{1,3}$/.test(t)) return undefined;
  return t.replace(/\d/g, (d) => LEET[d] ?? d);
}

/** "YU7629" -> "yu 7629", "SONG6" -> "song 6", "50THanniversary" -> "50th anniversary": a number glued to a word. */
export function splitLettersDigits(t: string): string[] {
  let match = /^([a-z]{2,})(\d+)$/.exec(t);
  if (match) return [match[1]!, match[2]!];
  match = /^(\d+(?:st|nd|rd|th)?)([a-z]{4,})$/.exec(t);
  if (match && !/^\d+(st|nd|rd|th)$/.test(t)) return [match[1]!, match[2]!];
  return [t];
}

/**
 * Titles everyone is given (Mr, Dr, Señor): the other honorifics are titles of a role (an office, a
 * rank, a religious title: President, General, Sheikh, Mullah), by which a person is named with
 * one name ("President Putin", "Mullah Omar", "Sheikh Yaqoob"), as lists themselves name them.
 */
const COURTESY = new Set(
  `mr mrs ms miss mister madam madame dr doctor prof professor sir dame lord lady hon honorable honourable
   herr frau monsieur senor senora sr sra don dona signor signora gospodin jr jnr snr his her he`.split(/\s+/),
);

/** An honorific that names a role, not one everyone is given (see COURTESY). */
export function isRoleTitle(t: string): boolean {
  return HONORIFICS.has(t) && !COURTESY.has(t);
}
