// Invalid variants of a valid request, each breaking exactly one rule of the contract: a
// parameter or field against its schema, a missing or unknown field, a file that is no image, a
// body that is junk, empty or of an undeclared content type. The server must refuse them all.
import fc from 'fast-check';
import { viable } from './generator.mjs';
import { bodyMedia, coerce, requestValid } from './requests.mjs';
import { isObject } from './spec.mjs';
import * as v from './values.mjs';

/**
 * @typedef {import('./spec.mjs').Operation} Operation
 * @typedef {import('./values.mjs').FilePart} FilePart
 * @typedef {import('./generator.mjs').Generator} Generator
 * @typedef {import('./requests.mjs').Body} Body
 * @typedef {import('./requests.mjs').RequestSpec} RequestSpec
 */

/**
 * Invalid variants of a valid request: each breaks exactly one rule of the contract.
 * @param {Generator} gen @param {Operation} op @param {fc.Arbitrary<RequestSpec>} valid
 * @returns {fc.Arbitrary<RequestSpec>[]}
 */
export function invalidArbitraries(gen, op, valid) {
  /** @type {fc.Arbitrary<RequestSpec>[]} */
  const out = [];
  /** @param {RequestSpec} req @param {Partial<RequestSpec>} change @param {string} reason */
  const variant = (req, change, reason) =>
    /** @type {RequestSpec} */ ({ ...req, ...change, reason });

  for (const param of op.parameters) {
    const where = param.in;
    if (where !== 'path' && where !== 'query') continue;
    for (const bad of gen.invalid(param.schema)) {
      const text = viable(
        bad.arbitrary.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))),
        // A path value must still reach this operation: no empty, dot or slash segments.
        (x) =>
          (where === 'query' || (x !== '' && x !== '.' && x !== '..' && !x.includes('/'))) &&
          !gen.contract.valid(param.schema, coerce(gen, param.schema, x)),
      );
      if (!text) continue;
      out.push(
        fc
          .tuple(valid, text)
          .map(([req, x]) =>
            variant(
              req,
              { [where]: { ...req[where], [param.name]: x } },
              `${where} parameter ${param.name}: ${bad.why}`,
            ),
          ),
      );
    }
  }

  const media = bodyMedia(op);
  if (!media) return out;
  const schema = gen.contract.deref(media.schema);
  const multipart = /multipart\/form-data/i.test(media.type);
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];

  for (const field of required) {
    out.push(
      valid.map((req) =>
        variant(req, { body: dropField(req.body, field) }, `missing required field ${field}`),
      ),
    );
  }
  if (schema.additionalProperties === false) {
    out.push(
      fc
        .tuple(
          valid,
          fc.stringMatching(/^[a-z][a-z_]{2,12}$/).filter((k) => !(k in properties)),
        )
        .map(([req, key]) =>
          variant(
            req,
            { body: setField(req.body, `unknown_${key}`, 'x') },
            `unknown field unknown_${key}`,
          ),
        ),
    );
  }
  for (const [field, sub] of Object.entries(properties)) {
    const prop = gen.contract.deref(sub);
    if (multipart && prop.format === 'binary') {
      out.push(
        fc
          .tuple(valid, v.notAnImage)
          .map(([req, file]) =>
            variant(
              req,
              { body: setFile(req.body, field, file) },
              `${field} is not a PNG or JPEG image`,
            ),
          ),
      );
      continue;
    }
    for (const bad of gen.invalid(sub)) {
      // Multipart fields are text: only rules a text value can break apply to them.
      if (multipart && /wrong type|outside the enum/.test(bad.why)) continue;
      out.push(
        fc
          .tuple(valid, bad.arbitrary)
          .map(([req, x]) =>
            variant(req, { body: setField(req.body, field, x) }, `field ${field}: ${bad.why}`),
          ),
      );
    }
  }
  // Every schema-level variant must really be invalid (e.g. dropping a field another rule
  // needs is fine, dropping one nothing needs is not a variant).
  const schemaBreaking = out.splice(0).flatMap((arb) => {
    const kept = viable(arb, (req) => !requestValid(gen, op, req));
    return kept ? [kept] : [];
  });
  out.push(...schemaBreaking);

  // Size limits are prose in the contract (2 MB an image), so only an operation that declares
  // 413 gets a file far over any such limit; it must be refused, not stored.
  if (multipart && '413' in op.responses) {
    for (const [field, sub] of Object.entries(properties)) {
      if (gen.contract.deref(sub).format !== 'binary') continue;
      out.push(
        valid.map((req) =>
          variant(
            req,
            { body: setFile(req.body, field, v.oversizedImage) },
            `${field} is a ${v.OVERSIZED_BYTES / 1024 / 1024} MiB image`,
          ),
        ),
      );
    }
  }

  if (!multipart) {
    out.push(
      fc
        .tuple(valid, fc.constantFrom('[]', '"text"', '42', 'null', 'true'))
        .map(([req, json]) =>
          variant(
            req,
            { body: { kind: 'raw', contentType: media.type, data: json } },
            `body is ${json}, not an object`,
          ),
        ),
    );
  }
  out.push(
    fc
      .tuple(valid, fc.constantFrom('{', '{"a":', "{'single': 'quotes'}", '{"a":1,}', '\u0000'))
      .map(([req, junk]) =>
        variant(
          req,
          {
            body: {
              kind: 'raw',
              contentType:
                media.type === 'multipart/form-data'
                  ? 'multipart/form-data; boundary=broken'
                  : media.type,
              data: junk,
            },
          },
          `malformed ${media.type} body`,
        ),
      ),
  );
  if (op.body?.required) {
    out.push(
      valid.map((req) =>
        variant(
          req,
          { body: { kind: 'raw', contentType: null, data: '' } },
          'no body and no content type',
        ),
      ),
    );
    out.push(
      valid.map((req) =>
        variant(
          req,
          {
            body: {
              kind: 'raw',
              contentType: media.type.startsWith('multipart')
                ? 'multipart/form-data; boundary=empty'
                : media.type,
              data: '',
            },
          },
          `empty ${media.type} body`,
        ),
      ),
    );
  }
  out.push(
    fc
      .tuple(
        valid,
        fc.constantFrom(
          'text/plain',
          'application/x-www-form-urlencoded',
          'application/xml',
          multipart ? 'application/json' : 'multipart/form-data; boundary=x',
        ),
      )
      .map(([req, type]) =>
        variant(
          req,
          { body: { kind: 'raw', contentType: type, data: asText(req.body) } },
          `undeclared content type ${type}`,
        ),
      ),
  );
  return out;
}

/** @param {Body | null} body @param {string} field @returns {Body | null} */
function dropField(body, field) {
  if (body?.kind === 'json' && isObject(body.value)) {
    const { [field]: _dropped, ...rest } = body.value;
    return { kind: 'json', value: rest };
  }
  if (body?.kind === 'multipart') {
    const { [field]: _f, ...fields } = body.fields;
    const { [field]: _p, ...files } = body.files;
    return { kind: 'multipart', fields, files };
  }
  return body;
}

/** @param {Body | null} body @param {string} field @param {unknown} value @returns {Body | null} */
function setField(body, field, value) {
  if (body?.kind === 'json' && isObject(body.value)) {
    return { kind: 'json', value: { ...body.value, [field]: value } };
  }
  if (body?.kind === 'multipart') {
    const { [field]: _file, ...files } = body.files;
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    return { kind: 'multipart', fields: { ...body.fields, [field]: text }, files };
  }
  return body;
}

/** @param {Body | null} body @param {string} field @param {FilePart} file @returns {Body | null} */
function setFile(body, field, file) {
  if (body?.kind !== 'multipart') return body;
  return { kind: 'multipart', fields: body.fields, files: { ...body.files, [field]: file } };
}

/** The body's content as text for a wrong-content-type variant. @param {Body | null} body */
function asText(body) {
  if (body?.kind === 'json') return JSON.stringify(body.value);
  if (body?.kind === 'multipart') return new URLSearchParams(body.fields).toString();
  return body?.kind === 'raw' ? body.data : '';
}
