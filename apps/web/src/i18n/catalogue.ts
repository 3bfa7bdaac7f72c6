// The message catalogues of the console, one per language, in one place (issue 23 item 17). English is the source
// and the fallback; a catalogue's type is English's shape, so a key added in English and forgotten in a language
// fails the type check. Today the public booking page (`booking`) is translated; the console's screens will add
// their namespaces next to it (the console comes in six languages in a later issue).
import { en } from './locales/en.ts';

type Shape<T> = { [K in keyof T]: T[K] extends string ? string : Shape<T[K]> };
export type Catalogue = Shape<typeof en>;
export type TNamespace = keyof Catalogue;
