/** react-admin's own texts in Chinese, a chunk of their own (loaded with the public messages: providers/i18nProvider.ts). */
export { raChineseMessages as default } from './zh-CN.ts';
