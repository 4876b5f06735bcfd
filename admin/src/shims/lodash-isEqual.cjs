/* global module */
/**
 * lodash's isEqual (admin/leanModules.ts): react-admin compares its store's values, its resource
 * definitions and its effects' dependencies with it, and lodash's own takes its generic equality
 * machinery along (stacks, caches, tag helpers: about 12 kB of plain script in the sign-in page's
 * first script). The same rules, written for the browser: SameValueZero for primitives (NaN equals
 * NaN), functions by reference, objects of the same kind (Object.prototype.toString) compared by
 * their own enumerable keys and symbols and lodash's constructor rule, arrays and typed arrays by
 * element, Maps and Sets by content in any order, Dates, booleans, numbers, strings, RegExps,
 * errors, symbols, ArrayBuffers and DataViews by value, cycles ended as lodash ends them.
 * tests/admin/leanModules.test.tsx compares it with lodash case by case and on random values.
 */
'use strict';

var toTag = function (value) {
  return Object.prototype.toString.call(value);
};
var hasOwn = Object.prototype.hasOwnProperty;
var isObjectLike = function (value) {
  return value !== null && typeof value === 'object';
};

function isEqual(value, other) {
  return equal(value, other, new Map());
}

function equal(value, other, stack) {
  if (value === other) return true;
  if (value == null || other == null || (!isObjectLike(value) && !isObjectLike(other))) return value !== value && other !== other;
  return equalDeep(value, other, stack);
}

function kindOf(value) {
  if (Array.isArray(value)) return '[object Array]';
  var tag = toTag(value);
  return tag === '[object Arguments]' ? '[object Object]' : tag;
}

function equalDeep(object, other, stack) {
  var tag = kindOf(object);
  if (tag !== kindOf(other)) return false;
  if (tag === '[object Object]') return stacked(object, other, stack, equalObjects);
  if (tag === '[object Array]' || (ArrayBuffer.isView(object) && !(object instanceof DataView))) return stacked(object, other, stack, equalArrays);
  return equalByTag(object, other, tag, stack);
}

/** An object met again while it is being compared: equal only to the same partner (lodash's Stack). */
function stacked(object, other, stack, compare) {
  var objPartner = stack.get(object);
  var othPartner = stack.get(other);
  if (objPartner && othPartner) return objPartner === other && othPartner === object;
  stack.set(object, other);
  stack.set(other, object);
  var result = compare(object, other, stack);
  stack.delete(object);
  stack.delete(other);
  return result;
}

function equalArrays(array, other, stack, unordered) {
  if (array.length !== other.length) return false;
  var matched = [];
  for (var i = 0; i < array.length; i++) {
    var item = array[i];
    if (unordered) {
      var found = false;
      for (var j = 0; j < other.length && !found; j++) {
        if (matched.indexOf(j) < 0 && (item === other[j] || equal(item, other[j], stack))) {
          matched.push(j);
          found = true;
        }
      }
      if (!found) return false;
    } else if (!(item === other[i] || equal(item, other[i], stack))) return false;
  }
  return true;
}

function ownKeys(object) {
  var keys = Object.keys(object);
  var symbols = Object.getOwnPropertySymbols(object).filter(function (s) {
    return Object.prototype.propertyIsEnumerable.call(object, s);
  });
  return keys.concat(symbols);
}

function equalObjects(object, other, stack) {
  var keys = ownKeys(object);
  if (keys.length !== ownKeys(other).length) return false;
  var skipCtor = false;
  for (var i = 0; i < keys.length; i++) {
    var key = keys[i];
    if (!hasOwn.call(other, key)) return false;
    if (!(object[key] === other[key] || equal(object[key], other[key], stack))) return false;
    skipCtor = skipCtor || key === 'constructor';
  }
  if (skipCtor) return true;
  var objCtor = object.constructor;
  var othCtor = other.constructor;
  var bothCtorsSelfInstances = typeof objCtor === 'function' && objCtor instanceof objCtor && typeof othCtor === 'function' && othCtor instanceof othCtor;
  return !(objCtor != othCtor && 'constructor' in object && 'constructor' in other && !bothCtorsSelfInstances);
}

function buffersEqual(a, b) {
  return a.byteLength === b.byteLength && equalArrays(new Uint8Array(a), new Uint8Array(b), new Map(), false);
}

function equalByTag(object, other, tag, stack) {
  switch (tag) {
    case '[object DataView]':
      // as lodash: the same window on buffers with the same bytes
      return object.byteLength === other.byteLength && object.byteOffset === other.byteOffset && buffersEqual(object.buffer, other.buffer);
    case '[object ArrayBuffer]':
      return buffersEqual(object, other);
    case '[object Boolean]':
    case '[object Date]':
    case '[object Number]':
      var a = +object;
      var b = +other;
      return a === b || (a !== a && b !== b);
    case '[object Error]':
      return object.name == other.name && object.message == other.message;
    case '[object RegExp]':
    case '[object String]':
      return object == other + '';
    case '[object Map]':
    case '[object Set]':
      if (object.size !== other.size) return false;
      return stacked(object, other, stack, function (o, t, s) {
        var entries = tag === '[object Map]' ? 'entries' : 'values';
        return equalArrays(Array.from(o[entries]()), Array.from(t[entries]()), s, true);
      });
    case '[object Symbol]':
      return Symbol.prototype.valueOf.call(object) === Symbol.prototype.valueOf.call(other);
    default:
      return false;
  }
}

module.exports = isEqual;
