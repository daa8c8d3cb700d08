// Jest's --filter for `npm run test:pg` (CommonJS: Jest loads a filter with require): keeps the
// test files that scripts/test-pg.mjs found to reach the database, passed in PG_TEST_FILES, after
// any path pattern given.
/** @param {string[]} testPaths */
module.exports = async function filter(testPaths) {
  const reach = new Set(JSON.parse(process.env.PG_TEST_FILES ?? '[]'));
  return { filtered: testPaths.filter((testPath) => reach.has(testPath)) };
};
