/**
 * A Lyon business's address book and a dataset file whose addresses it should place, for
 * bench/imports.ts: entries are "<number> <type> <name>" on a few hundred streets of nine postal
 * codes, so every entry shares "lyon", "6900x" and a street type with thousands of others, as a
 * real city's book does. Generated from a seed: the same every run.
 */
import type { Db } from '../src/platform/db/database.ts';

const NAMES = [
  'de la République',
  'Victor Hugo',
  'Garibaldi',
  'de Marseille',
  'Paul Bert',
  'Duguesclin',
  'Vendôme',
  'de Créqui',
  'Servient',
  'Moncey',
  'de Bonnel',
  'Molière',
  'Tronchet',
  'Vauban',
  'Lafayette',
  'de Sèze',
  'Boileau',
  'Cuvier',
  'Juliette Récamier',
  'Masséna',
  'Bugeaud',
  'Pierre Corneille',
  'de Brest',
  'Mercière',
  'Édouard Herriot',
  'du Président Carnot',
  'Grenette',
  'de la Charité',
  'Sala',
  'Auguste Comte',
  'Franklin',
  'Sainte-Hélène',
  'Vaubecour',
  'de Condé',
  'Jarente',
  'Smith',
  'Casimir Périer',
  'Delandine',
  'Jean Jaurès',
  'Berthelot',
  'Jean Macé',
  'Félix Faure',
  'de Gerland',
  'Marcel Mérieux',
  'Challemel Lacour',
  'des États-Unis',
  'Paul Santy',
  'Mermoz',
  'Lacassagne',
  'Feuillat',
  'Saint-Maurice',
  'Villon',
  'Albert Thomas',
  'Rockefeller',
];
const TYPES = ['Rue', 'Avenue', 'Cours', 'Quai', 'Boulevard', 'Place', 'Impasse', 'Chemin'];
const TRADES = [
  'Boulangerie',
  'Pharmacie',
  'Garage',
  'Cabinet',
  'Atelier',
  'Librairie',
  'Fromagerie',
  'Fleuriste',
];
/** House numbers of the book; the file's "unknown number" rows take one above. */
const HIGHEST_NUMBER = 150;

export interface BookEntry {
  label: string;
  line1: string;
  postal_code: string;
}

/** A small linear congruential generator: the same entries for the same seed. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/** `count` distinct entries (one number of one street each). */
export function bookEntries(count: number, seed = 7): BookEntry[] {
  const random = seeded(seed);
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
  const seen = new Set<string>();
  const entries: BookEntry[] = [];
  while (entries.length < count) {
    const line1 = `${1 + Math.floor(random() * HIGHEST_NUMBER)} ${pick(TYPES)} ${pick(NAMES)}`;
    if (seen.has(line1)) continue;
    seen.add(line1);
    entries.push({
      label: `${TRADES[entries.length % TRADES.length]} ${entries.length + 1}`,
      line1,
      postal_code: `6900${1 + Math.floor(random() * 9)}`,
    });
  }
  return entries;
}

/** Writes the entries into the business's own book, placed around Lyon, a thousand a statement. */
export async function saveBook(db: Db, businessId: number, entries: BookEntry[]): Promise<void> {
  const random = seeded(11);
  const now = new Date();
  for (let start = 0; start < entries.length; start += 1_000) {
    await db
      .insertInto('saved_addresses')
      .values(
        entries.slice(start, start + 1_000).map((entry) => ({
          business_id: businessId,
          customer_user_id: null,
          ...entry,
          city: 'Lyon',
          country: 'FR',
          lat: 45.7 + random() * 0.1,
          lng: 4.8 + random() * 0.1,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  }
}

/**
 * A dataset CSV (`name,site`) of `rows` deliveries, a quarter of each kind: an address of the book
 * as written, the same with a typo, a number the book does not have on that street, and a street
 * the book does not know. The first two are placed from the book; the others are not.
 */
export function deliveriesCsv(entries: BookEntry[], rows: number): string {
  const lines = ['name,site'];
  for (let i = 0; i < rows; i++) {
    const entry = entries[(i * 7) % entries.length]!;
    const street = entry.line1.replace(/^\d+ /, '');
    const site = [
      `${entry.line1}, ${entry.postal_code} Lyon`,
      `${entry.line1.replace(/([aeiou])/, '$1$1')}, ${entry.postal_code} Lyon`,
      `${HIGHEST_NUMBER + 1 + (i % 50)} ${street}, ${entry.postal_code} Lyon`,
      `${i} Rue Inconnue ${i}, 69001 Lyon`,
    ][i % 4]!;
    lines.push(`Delivery ${i},"${site}"`);
  }
  return lines.join('\n');
}
