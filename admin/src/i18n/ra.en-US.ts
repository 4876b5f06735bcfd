/** react-admin's own texts in English, a chunk of their own (loaded with the public messages: providers/i18nProvider.ts). */
export { default } from 'ra-language-english';
