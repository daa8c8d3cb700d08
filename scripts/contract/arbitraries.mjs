// fast-check arbitraries built from the contract: schema-valid requests for every operation
// (realistic where a format or a field's meaning demands it, fed with values harvested from
// earlier answers), and invalid or junk variants that the server must refuse.
// The jobs live beside it: generator.mjs (values for one schema), requests.mjs (valid requests)
// and variants.mjs (invalid ones); this module is what the rest of the tool imports.

/**
 * @typedef {import('./requests.mjs').Body} Body
 * @typedef {import('./requests.mjs').Auth} Auth
 * @typedef {import('./requests.mjs').RequestSpec} RequestSpec
 * @typedef {import('./generator.mjs').PoolReader} PoolReader
 */

export { Generator } from './generator.mjs';
export { bodyArbitrary, paramsArbitrary, requestValid } from './requests.mjs';
export { invalidArbitraries } from './variants.mjs';
