// The languages the app speaks: the message catalogue's (src/messages/es.json, en.json) and those a buyer's e-mail
// may be written in (the outbox's CHECK). Declared here, beside the schema that holds them.

export const LANGUAGES = ['es', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
