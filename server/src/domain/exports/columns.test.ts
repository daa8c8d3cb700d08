import fs from 'node:fs';
import yaml from 'js-yaml';
import { GATEWAY_OPENAPI_PATH, OPENAPI_PATH } from '../../paths';
import released from './releasedColumns.json';
import { EXPORT_KINDS } from './kinds';

// A released version's columns are a promise to the merchants' spreadsheets: the fixture holds
// every version ever released, and a change to one fails here. Change the columns by adding a
// version to the kind (and to the fixture), never by editing one.

const current = Object.fromEntries(
  Object.entries(EXPORT_KINDS).map(([name, kind]) => [
    name,
    Object.fromEntries(kind.versions.map((columns, index) => [`v${index + 1}`, [...columns]])),
  ]),
);

describe('export columns', () => {
  it.each(Object.entries(released))(
    '%s keeps the columns of every released version',
    (name, versions) => {
      expect(current[name]).toBeDefined();
      for (const [version, columns] of Object.entries(versions)) {
        expect({ version, columns: current[name]?.[version] }).toEqual({ version, columns });
      }
    },
  );

  it('has every kind and version released in the fixture', () => {
    // A new kind or version is frozen in the fixture with the change that adds it.
    expect(current).toEqual(released);
  });

  it("are the columns the gateway's contract documents for the app's kinds", () => {
    const contract = yaml.load(fs.readFileSync(GATEWAY_OPENAPI_PATH, 'utf8')) as {
      paths: Record<string, { get: { 'x-export-columns': unknown } }>;
    };
    const documented = contract.paths['/exports/{kind}']?.get['x-export-columns'];
    const appKinds = Object.fromEntries(
      Object.entries(current).filter(
        ([name]) => EXPORT_KINDS[name as keyof typeof EXPORT_KINDS].owner === 'app',
      ),
    );
    expect(documented).toEqual(appKinds);
  });

  it("are the columns the portal's contract documents for the account's kinds", () => {
    const contract = yaml.load(fs.readFileSync(OPENAPI_PATH, 'utf8')) as {
      paths: Record<string, { post: { 'x-export-columns': unknown } }>;
    };
    const documented =
      contract.paths['/cryptosafelock/exports/{kind}/link']?.post['x-export-columns'];
    const accountKinds = Object.fromEntries(
      Object.entries(current).filter(
        ([name]) => EXPORT_KINDS[name as keyof typeof EXPORT_KINDS].owner === 'user',
      ),
    );
    expect(documented).toEqual(accountKinds);
  });
});
