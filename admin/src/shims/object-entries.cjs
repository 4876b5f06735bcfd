/* global module */
// node-polyglot's require('object.entries') (admin/leanModules.ts): the browser's own Object.entries.
// CommonJS, as the module it replaces: polyglot calls what require() answers.
module.exports = function entries(object) {
  return Object.entries(object);
};
