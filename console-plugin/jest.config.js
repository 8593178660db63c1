// Unit tests of the view logic (src/view): plain TypeScript objects in,
// what is shown out; and a server-side render of the tab, with the SDK's
// hooks stubbed. No browser, no console.
module.exports = {
  testEnvironment: 'node',
  testRegex: '\\.spec\\.tsx?$',
  transform: {
    '^.+\\.tsx?$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: { warnOnly: false } }],
  },
  moduleNameMapper: {
    '\\.css$': '<rootDir>/src/__mocks__/style.js',
  },
};
