/* global module */
// node-polyglot's require('hasown') (admin/leanModules.ts): the same call without function-bind.
module.exports = function hasOwn(object, key) {
  return Object.prototype.hasOwnProperty.call(object, key);
};
