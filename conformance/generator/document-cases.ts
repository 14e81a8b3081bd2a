/**
 * Document-conformance cases (Core §§2.1, 3.1–3.3, 3.3.1, 4.1, 6.7, 9, 11). The expected layer is the first one the
 * cited text says the document fails: carrier (§2.1/§3.1), structural (§3.2: the schema and schema-adjacent
 * requirements, including formats and §4.1 profile refusal), or semantic (§3.3).
 */
import { readdirSync, readFileSync } from 'node:fs';
import {
  all,
  any,
  ev,
  evReq,
  escalateEx,
  fact,
  force,
  lit,
  not,
  pack,
  raw,
  rawBytes,
  route,
  rule,
  suppress,
  target,
  type Json,
  type Raw,
} from './builders.js';
import type { DocCaseDef } from './case-types.js';

const cases: DocCaseDef[] = [];
type Cls = 'valid' | 'carrier' | 'structural' | 'semantic';
function doc(id: string, description: string, document: Json | Raw, cls: Cls, more: Partial<DocCaseDef> = {}): void {
  cases.push({ id, description, document, expectedConformant: cls === 'valid', expectedClass: cls, ...more });
}
const P = pack;
const json = (v: unknown) => JSON.stringify(v);
const minimal = json(P());
/** Replace a unique fragment of the minimal pack's compact JSON (throws if it is not there exactly once). */
function edit(from: string, to: string, base = minimal): Raw {
  const at = base.indexOf(from);
  if (at < 0 || base.indexOf(from, at + 1) >= 0) throw new Error(`edit: ${from} must occur exactly once`);
  return raw(base.slice(0, at) + to + base.slice(at + from.length));
}

// ---- valid -----------------------------------------------------------------------------------------------------
doc('valid-minimal-0-3-0', 'The minimal 0.3.0 pack: every required member and nothing else.', P(), 'valid');
doc(
  'valid-minimal-0-2-0-draft',
  'The minimal 0.2.0-draft pack under its own selector (§11).',
  P({ specVersion: '0.2.0-draft' }),
  'valid',
);
doc('valid-profile-base', '§4.1: profile base is admitted.', P({ profile: 'base' }), 'valid');
doc(
  'valid-profile-extended',
  '§4.1: profile extended is admitted by a reader supporting it.',
  P({ profile: 'extended' }),
  'valid',
);
doc(
  'valid-extended-sixteen-routes',
  '§6.7/§4.1: 16 routes under extended.',
  P({
    profile: 'extended',
    escalation: {
      triggers: ['conflict'],
      routes: Array.from({ length: 16 }, (_, i) => route(target('queue', `Q${i}`))),
    },
  }),
  'valid',
);
doc(
  'valid-base-eight-routes',
  '§6.7: 8 routes is the base maximum.',
  P({
    escalation: {
      triggers: ['conflict'],
      routes: Array.from({ length: 8 }, (_, i) => route(target('queue', `Q${i}`))),
    },
  }),
  'valid',
);
doc(
  'valid-routes-duplicate-targets',
  '§6.7: duplicate targets remain distinct routes.',
  P({
    escalation: {
      triggers: ['conflict', 'unknown'],
      routes: [route(target('queue', 'A'), ['unknown']), route(target('queue', 'A'))],
    },
  }),
  'valid',
);
doc(
  'valid-routes-trigger-subset',
  '§6.7: route triggers a non-empty duplicate-free subset of the escalation triggers.',
  P({
    escalation: {
      triggers: ['conflict', 'unknown', 'no-match'],
      routes: [route(target('system', 'S'), ['no-match', 'conflict'])],
    },
  }),
  'valid',
);
doc(
  'valid-target-escalation',
  '§6.7: target with kind and name.',
  P({ escalation: { triggers: ['no-match'], target: target('human-role', 'Reviewer'), message: 'Please look.' } }),
  'valid',
);
doc(
  'valid-every-operator',
  '§7.4: every operator with an admitted operand; §2.2 decimal strings for the ordered ones.',
  P({
    rules: [
      rule(
        'r1',
        all(
          fact('/a', 'equals', { o: [1, null, true] }),
          fact('/b', 'not-equals', 'x'),
          fact('/c', 'in', [1, 'one']),
          fact('/d', 'greater-than', '-0.5'),
        ),
        'yes',
      ),
      rule(
        'r2',
        any(
          fact('/e', 'greater-than-or-equal', '0'),
          fact('/f', 'less-than', '10.25'),
          fact('/g', 'less-than-or-equal', '-0'),
          not(lit(false)),
        ),
        'no',
      ),
    ],
  }),
  'valid',
);
doc(
  'valid-all-optional-members',
  'Every optional member of every object, with asserted formats (§3.2).',
  P({
    description: 'A pack with every optional member.',
    decision: { intent: 'i', question: 'q', extensions: { 'com.example.d': 1 } },
    applicability: lit(true),
    evidenceRequirements: [
      { id: 'doc', description: 'A document.', required: true, kind: 'document', extensions: { 'com.example.e': {} } },
    ],
    sources: [
      {
        id: 'src',
        title: 'Source',
        publisher: 'Pub',
        publishedAt: '2026-02-28',
        locator: { kind: 'uri', value: 'https://example.org/s' },
        citation: { location: 'p. 1', excerpt: 'Text.' },
        rights: 'CC0',
        extensions: { 'com.example.s': null },
      },
    ],
    outcomes: [
      { id: 'yes', label: 'Yes', description: 'Affirmative.', extensions: { 'com.example.o': [] } },
      { id: 'no', label: 'No' },
    ],
    rules: [
      rule('r1', ev('doc'), 'yes', 'escalate', {
        evidenceRequirementRefs: ['doc'],
        sourceRefs: ['src'],
        rationale: 'Because.',
        extensions: { 'com.example.r': 'x' },
      }),
    ],
    exceptions: [{ ...suppress('x1', lit(false), 'r1'), sourceRefs: ['src'], extensions: { 'com.example.x': true } }],
    fallbackOutcome: 'no',
    escalation: {
      triggers: ['unknown'],
      target: target('system', 'Ticketing'),
      message: 'm',
      extensions: { 'com.example.esc': 1 },
    },
    metadata: {
      authors: ['A'],
      createdAt: '2026-07-27T09:00:00Z',
      license: 'MIT',
      requiredExtensions: ['com.example.d'],
      reviews: [{ reviewer: 'R', reviewedAt: '2026-07-28T10:00:00+02:00', disposition: 'approved', note: 'ok' }],
      extensions: { 'com.example.m': 1 },
    },
    extensions: { 'com.example.root': { anything: [1, 2, 3] } },
  }),
  'valid',
);
doc(
  'valid-required-extension-in-nested-object',
  '§9: a required extension may be declared in any extensions object (here decision.extensions).',
  P({
    decision: { intent: 'i', question: 'q', extensions: { 'com.example.policy': true } },
    metadata: { requiredExtensions: ['com.example.policy'] },
  }),
  'valid',
);
doc(
  'valid-same-id-across-collections',
  '§3.3: ids are unique within their collections; an outcome and a rule may share an id.',
  P({ rules: [rule('yes', lit(true), 'yes')] }),
  'valid',
);
doc(
  'valid-surrogate-pair-escape',
  '§2.1: a paired surrogate escape is admitted.',
  edit('"title":"Corpus pack"', '"title":"Corpus \\ud83d\\ude00 pack"'),
  'valid',
);
doc('valid-non-ascii-utf8', '§2.1: UTF-8 text outside ASCII.', P({ title: 'Prüfung – 審査 😀' }), 'valid');
doc(
  'valid-legacy-lone-surrogate',
  '§11: the 0.2.0-draft carrier accepted a lone \\uD800 escape in a title; under its own selector the document is admitted.',
  edit('"title":"Corpus pack"', '"title":"Corpus \\uD800 pack"', json(P({ specVersion: '0.2.0-draft' }))),
  'valid',
);
doc(
  'valid-prototype-named-extension-members',
  '§9: extension values are arbitrary JSON; member names such as "__proto__" and "constructor" are data.',
  edit('"rules":', '"extensions":{"com.example.x":{"__proto__":{"a":1},"constructor":"c","toString":[]}},"rules":'),
  'valid',
);
doc(
  'valid-prototype-named-fact-paths',
  '§7.4: pointers naming "__proto__", "constructor" and "toString" are ordinary pointers.',
  P({
    rules: [
      rule(
        'r1',
        any(
          fact('/__proto__', 'equals', 1),
          fact('/constructor/prototype', 'equals', 1),
          fact('/toString', 'in', ['x']),
        ),
        'yes',
      ),
    ],
  }),
  'valid',
);
doc('valid-urn-id', '§5: the id may be any absolute URI, such as a URN.', P({ id: 'urn:example:pack:1' }), 'valid');
doc(
  'valid-whitespace-around',
  'RFC 8259: insignificant whitespace before and after the root.',
  raw(` \n\t${minimal}\r\n `),
  'valid',
);
doc(
  'valid-pointer-escapes',
  '§7.4: a path with ~0 and ~1 escapes and an empty token.',
  P({ rules: [rule('r1', fact('/a~1b/~0/', 'equals', 1), 'yes')] }),
  'valid',
);
doc(
  'valid-number-lexemes-in-operands',
  'RFC 8259: equality operands may use any number lexeme, e.g. 1.0E+2.',
  edit(
    '"rules":[{"id":"r1","description":"Rule r1.","when":{"op":"literal","value":true}',
    '"rules":[{"id":"r1","description":"Rule r1.","when":{"op":"fact","path":"/n","operator":"equals","value":1.0E+2}',
  ),
  'valid',
);
doc(
  'valid-overlap-warning-only',
  '§3.3.1: an exact overlap (score >= 40 and score >= 70 naming different outcomes) is a warning in plain validation and an error under strict.',
  P({
    rules: [
      rule('low', fact('/score', 'greater-than-or-equal', '40'), 'no'),
      rule('high', fact('/score', 'greater-than-or-equal', '70'), 'yes'),
    ],
  }),
  'valid',
  { expectedCodes: ['JPS-RULES-OVERLAP'], expectedStrictClass: 'semantic' },
);
doc(
  'valid-bands-do-not-overlap',
  '§3.3.1: the suggested exclusive rewrite (>= 40 and < 70) does not overlap >= 70, so strict mode accepts it too.',
  P({
    rules: [
      rule('low', all(fact('/score', 'greater-than-or-equal', '40'), fact('/score', 'less-than', '70')), 'no'),
      rule('high', fact('/score', 'greater-than-or-equal', '70'), 'yes'),
    ],
  }),
  'valid',
  { expectedStrictClass: 'valid' },
);
doc(
  'valid-cross-path-overlap-not-excluded',
  '§3.3.1: different fact paths give a not-excluded overlap, which stays a warning even under strict.',
  P({
    rules: [rule('a', fact('/a', 'equals', 1), 'yes'), rule('b', fact('/b', 'equals', 1), 'no')],
  }),
  'valid',
  { expectedCodes: ['JPS-RULES-OVERLAP'], expectedStrictClass: 'valid' },
);

// ---- carrier (§2.1) --------------------------------------------------------------------------------------------
doc('carrier-empty', '§2.1: an empty document is not a JSON text.', raw(''), 'carrier');
doc('carrier-whitespace-only', '§2.1: whitespace alone is not a JSON text.', raw('  \n'), 'carrier');
doc(
  'carrier-truncated',
  '§2.1: incomplete input is refused, never processed as a prefix.',
  raw(minimal.slice(0, minimal.length - 1)),
  'carrier',
);
doc(
  'carrier-trailing-comma',
  'RFC 8259: a trailing comma is a syntax error.',
  raw(`${minimal.slice(0, -1)},}`),
  'carrier',
);
doc('carrier-trailing-data', '§2.1: data after the root value is refused.', raw(`${minimal} {}`), 'carrier');
doc('carrier-two-roots', '§2.1: two JSON texts are not one.', raw(`${minimal}${minimal}`), 'carrier');
doc(
  'carrier-duplicate-root-member',
  '§2.1: member names MUST be unique.',
  edit('"title":"Corpus pack"', '"title":"Corpus pack","title":"Corpus pack"'),
  'carrier',
);
doc(
  'carrier-duplicate-nested-member',
  '§2.1: uniqueness applies at every depth.',
  edit('"intent":"Exercise one rule of Core."', '"intent":"a","intent":"b"'),
  'carrier',
);
doc(
  'carrier-duplicate-after-unescape',
  '§2.1: "title" and "\\u0074itle" are the same name once unescaped.',
  edit('"title":"Corpus pack"', '"title":"Corpus pack","\\u0074itle":"Other"'),
  'carrier',
);
doc(
  'carrier-duplicate-in-extension',
  '§2.1: duplicates inside an extension value are still carrier failures.',
  edit('"rules":', '"extensions":{"com.example.x":{"k":1,"k":2}},"rules":'),
  'carrier',
);
doc(
  'carrier-lone-high-surrogate',
  '§2.1 (0.3.0): a lone high surrogate escape is malformed.',
  edit('"title":"Corpus pack"', '"title":"Corpus \\ud800 pack"'),
  'carrier',
);
doc(
  'carrier-lone-low-surrogate',
  '§2.1: a lone low surrogate escape is malformed.',
  edit('"title":"Corpus pack"', '"title":"\\udc00"'),
  'carrier',
);
doc(
  'carrier-reversed-surrogates',
  '§2.1: low then high is not a valid pair.',
  edit('"title":"Corpus pack"', '"title":"\\ude00\\ud83d"'),
  'carrier',
);
doc(
  'carrier-high-surrogate-then-text',
  '§2.1: a high surrogate followed by a non-surrogate escape is unpaired.',
  edit('"title":"Corpus pack"', '"title":"\\ud83d\\u0041"'),
  'carrier',
);
doc(
  'carrier-lone-surrogate-in-member-name',
  '§2.1: the pairing rule applies to member names too (inside an extension).',
  edit('"rules":', '"extensions":{"com.example.x":{"\\ud800":1}},"rules":'),
  'carrier',
);
doc(
  'carrier-invalid-utf8',
  '§2.1: a 0xFF byte is not UTF-8.',
  rawBytes(minimal.replace('Corpus pack', 'Corpus \xff pack')),
  'carrier',
);
doc(
  'carrier-overlong-utf8',
  '§2.1: an overlong encoding (C0 AF) is not valid UTF-8.',
  rawBytes(minimal.replace('Corpus pack', 'Corpus \xc0\xaf pack')),
  'carrier',
);
doc(
  'carrier-utf8-encoded-surrogate',
  '§2.1: a UTF-8-encoded surrogate (ED A0 80) is not valid UTF-8.',
  rawBytes(minimal.replace('Corpus pack', 'Corpus \xed\xa0\x80 pack')),
  'carrier',
);
doc(
  'carrier-truncated-utf8',
  '§2.1: a truncated multi-byte sequence (E2 82) is not valid UTF-8.',
  rawBytes(minimal.replace('Corpus pack', 'Corpus \xe2\x82 pack')),
  'carrier',
);
doc(
  'carrier-single-quotes',
  'RFC 8259: strings use double quotes.',
  raw(minimal.replace('"title":"Corpus pack"', "'title':'Corpus pack'")),
  'carrier',
);
doc('carrier-comment', 'RFC 8259: comments are not JSON.', raw(`/* c */${minimal}`), 'carrier');
doc(
  'carrier-control-character',
  'RFC 8259: an unescaped control character in a string.',
  raw(minimal.replace('Corpus pack', 'Corpus\tpack')),
  'carrier',
);
doc(
  'carrier-invalid-escape',
  'RFC 8259: \\x is not an escape.',
  raw(minimal.replace('Corpus pack', 'Corpus \\x41 pack')),
  'carrier',
);
doc(
  'carrier-nan',
  'RFC 8259: NaN is not a JSON number.',
  edit('"rules":', '"extensions":{"com.example.x":NaN},"rules":'),
  'carrier',
);
doc(
  'carrier-leading-zero',
  'RFC 8259: 01 is not a JSON number.',
  edit('"rules":', '"extensions":{"com.example.x":01},"rules":'),
  'carrier',
);
doc(
  'carrier-plus-number',
  'RFC 8259: +1 is not a JSON number.',
  edit('"rules":', '"extensions":{"com.example.x":+1},"rules":'),
  'carrier',
);
doc(
  'carrier-bare-word',
  'RFC 8259: only true, false and null are literals.',
  edit('"rules":', '"extensions":{"com.example.x":undefined},"rules":'),
  'carrier',
);
doc('carrier-unclosed-string', 'RFC 8259: an unterminated string.', raw('{"specVersion":"0.3.0'), 'carrier');
doc(
  'carrier-before-structure',
  '§3: carrier failures are reported before structure; a non-object root with a duplicate inside is carrier.',
  raw('[{"a":1,"a":1}]'),
  'carrier',
);

// ---- structural (§3.2, §4, §4.1, §6) ------------------------------------------------------------------------------
doc('structural-root-array', '§4: the root MUST be an object.', [], 'structural');
doc('structural-root-string', '§4: the root MUST be an object.', 'pack', 'structural');
doc('structural-root-null', '§4: the root MUST be an object.', null, 'structural');
doc('structural-missing-spec-version', '§3.2: specVersion is required.', P({ specVersion: undefined }), 'structural');
doc(
  'structural-spec-version-0-1-0',
  '§11: 0.1.0-draft is not a supported selector.',
  P({ specVersion: '0.1.0-draft' }),
  'structural',
);
doc(
  'structural-spec-version-0-3-0-draft',
  '§11: the selector is exact; "0.3.0-draft" is refused.',
  P({ specVersion: '0.3.0-draft' }),
  'structural',
);
doc('structural-spec-version-number', '§11: a numeric selector is refused.', P({ specVersion: 0.3 }), 'structural');
doc('structural-missing-id', '§3.2: id is required.', P({ id: undefined }), 'structural');
doc(
  'structural-relative-id',
  '§3.2/§5: id MUST be an absolute URI; a relative reference fails the asserted format.',
  P({ id: 'packs/loan' }),
  'structural',
);
doc('structural-version-not-semver', '§3.2: version must be MAJOR.MINOR.PATCH.', P({ version: '1.0' }), 'structural');
doc('structural-empty-title', '§3.2: title is a non-empty string.', P({ title: '' }), 'structural');
doc(
  'structural-unknown-root-member',
  '§4: a member not defined for the object MUST NOT appear.',
  P({ priority: 1 }),
  'structural',
);
doc(
  'structural-decision-missing-question',
  '§6.1: decision.question is required.',
  P({ decision: { intent: 'i' } }),
  'structural',
);
doc(
  'structural-decision-unknown-member',
  '§6.1: decision may not embed a prompt member.',
  P({ decision: { intent: 'i', question: 'q', prompt: 'You are…' } }),
  'structural',
);
doc(
  'structural-one-outcome',
  '§3.2: outcomes needs at least two items.',
  P({ outcomes: [{ id: 'yes', label: 'Yes' }] }),
  'structural',
);
doc('structural-no-rules', '§3.2: rules needs at least one item.', P({ rules: [] }), 'structural');
doc(
  'structural-rule-missing-on-unknown',
  '§6.5: onUnknown is required.',
  P({ rules: [{ id: 'r1', description: 'd', when: lit(true), outcome: 'yes' }] }),
  'structural',
);
doc(
  'structural-rule-on-unknown-value',
  '§6.5: onUnknown is ignore or escalate.',
  P({ rules: [rule('r1', lit(true), 'yes', 'fail' as 'ignore')] }),
  'structural',
);
doc(
  'structural-rule-priority-member',
  '§6.5: rules have no priority field.',
  P({ rules: [rule('r1', lit(true), 'yes', 'ignore', { priority: 1 })] }),
  'structural',
);
doc(
  'structural-local-id-uppercase',
  '§5: local ids match ^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$.',
  P({ rules: [rule('R1', lit(true), 'yes')] }),
  'structural',
);
doc(
  'structural-local-id-double-hyphen',
  '§5: "a--b" is not a local id.',
  P({ rules: [rule('a--b', lit(true), 'yes')] }),
  'structural',
);
doc(
  'structural-unknown-condition-op',
  '§7: an unknown op is not a condition.',
  P({ rules: [rule('r1', { op: 'xor', conditions: [lit(true)] }, 'yes')] }),
  'structural',
);
doc(
  'structural-literal-string-value',
  '§7: literal takes a Boolean.',
  P({ rules: [rule('r1', { op: 'literal', value: 'true' }, 'yes')] }),
  'structural',
);
doc(
  'structural-all-empty',
  '§7.1: all needs at least one condition.',
  P({ rules: [rule('r1', { op: 'all', conditions: [] }, 'yes')] }),
  'structural',
);
doc(
  'structural-fact-missing-value',
  '§7.4: a fact condition needs a value.',
  P({ rules: [rule('r1', { op: 'fact', path: '/a', operator: 'equals' }, 'yes')] }),
  'structural',
);
doc(
  'structural-unknown-operator',
  '§7.4: "contains" is not an admitted operator.',
  P({ rules: [rule('r1', fact('/a', 'contains', 'x'), 'yes')] }),
  'structural',
);
doc(
  'structural-ordered-number-operand',
  '§2.2: an ordered operand MUST be a decimal string, not a JSON number.',
  P({ rules: [rule('r1', fact('/a', 'greater-than', 5), 'yes')] }),
  'structural',
);
doc(
  'structural-ordered-exponent',
  '§2.2: exponent notation is not admitted.',
  P({ rules: [rule('r1', fact('/a', 'less-than', '1e3'), 'yes')] }),
  'structural',
);
doc(
  'structural-ordered-leading-zero',
  '§2.2: leading zeroes are not admitted.',
  P({ rules: [rule('r1', fact('/a', 'less-than', '01'), 'yes')] }),
  'structural',
);
doc(
  'structural-ordered-plus',
  '§2.2: a leading plus sign is not admitted.',
  P({ rules: [rule('r1', fact('/a', 'greater-than-or-equal', '+1'), 'yes')] }),
  'structural',
);
doc(
  'structural-ordered-trailing-dot',
  '§2.2: "1." lacks fraction digits.',
  P({ rules: [rule('r1', fact('/a', 'less-than-or-equal', '1.'), 'yes')] }),
  'structural',
);
doc(
  'structural-in-empty',
  '§7.4: in needs a non-empty array.',
  P({ rules: [rule('r1', fact('/a', 'in', []), 'yes')] }),
  'structural',
);
doc(
  'structural-in-not-array',
  '§7.4: in needs an array.',
  P({ rules: [rule('r1', fact('/a', 'in', 'x'), 'yes')] }),
  'structural',
);
doc(
  'structural-path-not-pointer',
  '§7.4: a fact path is an RFC 6901 pointer; "a/b" lacks the leading slash.',
  P({ rules: [rule('r1', fact('a/b', 'equals', 1), 'yes')] }),
  'structural',
);
doc(
  'structural-path-bad-escape',
  'RFC 6901: "~2" is not an escape.',
  P({ rules: [rule('r1', fact('/a~2', 'equals', 1), 'yes')] }),
  'structural',
);
doc(
  'structural-suppress-without-target',
  '§6.6: suppress-rule requires targetRule.',
  P({ exceptions: [{ id: 'x1', description: 'd', when: lit(true), effect: 'suppress-rule', onUnknown: 'ignore' }] }),
  'structural',
);
doc(
  'structural-force-with-target-rule',
  '§6.6: force-outcome has no targetRule.',
  P({ exceptions: [{ ...force('x1', lit(true), 'yes'), targetRule: 'r1' }] }),
  'structural',
);
doc(
  'structural-escalate-with-outcome',
  '§6.6: escalate has neither outcome nor targetRule.',
  P({ exceptions: [{ ...escalateEx('x1', lit(true)), outcome: 'yes' }] }),
  'structural',
);
doc(
  'structural-exception-missing-on-unknown',
  '§6.6: every exception has a required onUnknown.',
  P({ exceptions: [{ id: 'x1', description: 'd', when: lit(true), effect: 'escalate' }] }),
  'structural',
);
doc(
  'structural-escalation-target-and-routes',
  '§6.7: declaring both target and routes is not conformant.',
  P({ escalation: { triggers: ['conflict'], target: target('queue', 'A'), routes: [route(target('queue', 'A'))] } }),
  'structural',
);
doc(
  'structural-escalation-neither',
  '§6.7: exactly one of target and routes.',
  P({ escalation: { triggers: ['conflict'] } }),
  'structural',
);
doc(
  'structural-routes-empty',
  '§6.7: routes has 1 to 8 entries.',
  P({ escalation: { triggers: ['conflict'], routes: [] } }),
  'structural',
);
doc(
  'structural-routes-nine-under-base',
  '§6.7: 9 routes exceed the base bound of 8.',
  P({
    escalation: {
      triggers: ['conflict'],
      routes: Array.from({ length: 9 }, (_, i) => route(target('queue', `Q${i}`))),
    },
  }),
  'structural',
);
doc(
  'structural-routes-nine-implicit-base',
  '§4.1: absence means base, so 9 routes are refused without a profile member as well as with profile base.',
  P({
    profile: 'base',
    escalation: {
      triggers: ['conflict'],
      routes: Array.from({ length: 9 }, (_, i) => route(target('queue', `Q${i}`))),
    },
  }),
  'structural',
);
doc(
  'structural-routes-seventeen-under-extended',
  '§6.7/§4.1: extended raises the bound to 16, not beyond.',
  P({
    profile: 'extended',
    escalation: {
      triggers: ['conflict'],
      routes: Array.from({ length: 17 }, (_, i) => route(target('queue', `Q${i}`))),
    },
  }),
  'structural',
);
doc(
  'structural-route-unknown-member',
  '§6.7: a route is a closed object.',
  P({ escalation: { triggers: ['conflict'], routes: [{ target: target('queue', 'A'), priority: 1 }] } }),
  'structural',
);
doc(
  'structural-route-empty-triggers',
  '§6.7: route triggers, if present, are non-empty.',
  P({ escalation: { triggers: ['conflict'], routes: [route(target('queue', 'A'), [])] } }),
  'structural',
);
doc(
  'structural-route-duplicate-triggers',
  '§6.7: route triggers are duplicate-free.',
  P({ escalation: { triggers: ['conflict'], routes: [route(target('queue', 'A'), ['conflict', 'conflict'])] } }),
  'structural',
);
doc(
  'structural-route-missing-target',
  '§6.7: each route contains target.',
  P({ escalation: { triggers: ['conflict'], routes: [{ triggers: ['conflict'] }] } }),
  'structural',
);
doc(
  'structural-target-kind',
  '§6.7: target kind is human-role, queue or system.',
  P({ escalation: { triggers: ['conflict'], target: target('email' as 'queue', 'a@example.org') } }),
  'structural',
);
doc(
  'structural-target-empty-name',
  '§6.7: name is a non-empty display name.',
  P({ escalation: { triggers: ['conflict'], target: target('queue', '') } }),
  'structural',
);
doc(
  'structural-triggers-empty',
  '§6.7: triggers is a non-empty set.',
  P({ escalation: { triggers: [], target: target('queue', 'A') } }),
  'structural',
);
doc(
  'structural-trigger-exception-escalation',
  '§6.7: exception-escalation is a reason, not a trigger.',
  P({ escalation: { triggers: ['exception-escalation'], target: target('queue', 'A') } }),
  'structural',
);
doc(
  'structural-profile-unknown',
  '§4.1: an unknown profile name is a structural refusal.',
  P({ profile: 'premium' }),
  'structural',
);
doc('structural-profile-null', '§4.1: a null profile is a structural refusal.', P({ profile: null }), 'structural');
doc(
  'structural-profile-empty',
  '§4.1: an empty-string profile is a structural refusal.',
  P({ profile: '' }),
  'structural',
);
doc(
  'structural-profile-non-string',
  '§4.1: a non-string profile is a structural refusal.',
  P({ profile: 1 }),
  'structural',
);
doc(
  'structural-profile-case',
  '§4.1: profile is exactly base or extended; "Base" is unknown.',
  P({ profile: 'Base' }),
  'structural',
);
doc(
  'structural-legacy-with-profile',
  '§11: profile is not accepted by the 0.2.0-draft structural schema.',
  P({ specVersion: '0.2.0-draft', profile: 'base' }),
  'structural',
);
doc(
  'structural-legacy-with-routes',
  '§11: routes are not accepted under 0.2.0-draft.',
  P({ specVersion: '0.2.0-draft', escalation: { triggers: ['conflict'], routes: [route(target('queue', 'A'))] } }),
  'structural',
);
doc(
  'structural-published-at-format',
  '§3.2: source.publishedAt MUST be an RFC 3339 full-date; 2026-13-01 is not one.',
  P({
    sources: [{ id: 's', title: 't', locator: { kind: 'uri', value: 'https://e.org' }, publishedAt: '2026-13-01' }],
  }),
  'structural',
);
doc(
  'structural-created-at-format',
  '§3.2: metadata.createdAt MUST be an RFC 3339 date-time.',
  P({ metadata: { createdAt: '2026-07-27' } }),
  'structural',
);
doc(
  'structural-reviewed-at-format',
  '§3.2: reviews[].reviewedAt MUST be an RFC 3339 date-time.',
  P({ metadata: { reviews: [{ reviewer: 'r', reviewedAt: 'yesterday', disposition: 'approved' }] } }),
  'structural',
);
doc(
  'structural-extension-key-pattern',
  '§9: extension keys use reverse-domain naming; "Policy" is not one.',
  P({ extensions: { Policy: 1 } }),
  'structural',
);
doc(
  'structural-extension-reserved-prefix',
  '§9: org.judgmentpack. names are reserved.',
  P({ extensions: { 'org.judgmentpack.future': 1 } }),
  'structural',
);
doc(
  'structural-required-extension-name',
  '§9: requiredExtensions entries use reverse-domain naming.',
  P({ metadata: { requiredExtensions: ['policy'] }, extensions: { 'com.example.policy': 1 } }),
  'structural',
);
doc(
  'structural-evidence-kind',
  '§6.2: kind is document, fact, measurement or attestation.',
  P({ evidenceRequirements: [{ id: 'e', description: 'd', required: true, kind: 'video' }] }),
  'structural',
);
doc(
  'structural-evidence-required-string',
  '§6.2: required is a Boolean.',
  P({ evidenceRequirements: [{ id: 'e', description: 'd', required: 'yes' }] }),
  'structural',
);
doc(
  'structural-duplicate-identical-outcomes',
  '§3.2: the schema requires unique items; two identical outcome objects.',
  P({
    outcomes: [
      { id: 'yes', label: 'Yes' },
      { id: 'yes', label: 'Yes' },
      { id: 'no', label: 'No' },
    ],
  }),
  'structural',
);
doc(
  'structural-locator-kind',
  '§6.3: locator kind is uri, repository, path or other.',
  P({ sources: [{ id: 's', title: 't', locator: { kind: 'isbn', value: '1' } }] }),
  'structural',
);

// ---- semantic (§3.3, §9) ---------------------------------------------------------------------------------------
doc(
  'semantic-duplicate-outcome-id',
  "§3.3: outcome ids are unique (labels differ, so the schema's uniqueItems does not catch it).",
  P({
    outcomes: [
      { id: 'yes', label: 'Yes' },
      { id: 'yes', label: 'Also yes' },
      { id: 'no', label: 'No' },
    ],
  }),
  'semantic',
);
doc(
  'semantic-duplicate-rule-id',
  '§3.3: rule ids are unique.',
  P({ rules: [rule('r1', lit(true), 'yes'), rule('r1', lit(false), 'no')] }),
  'semantic',
);
doc(
  'semantic-duplicate-evidence-id',
  '§3.3: evidence-requirement ids are unique.',
  P({ evidenceRequirements: [evReq('e', true), evReq('e', false)] }),
  'semantic',
);
doc(
  'semantic-duplicate-source-id',
  '§3.3: source ids are unique.',
  P({
    sources: [
      { id: 's', title: 'A', locator: { kind: 'path', value: 'a' } },
      { id: 's', title: 'B', locator: { kind: 'path', value: 'b' } },
    ],
  }),
  'semantic',
);
doc(
  'semantic-duplicate-exception-id',
  '§3.3: exception ids are unique.',
  P({ exceptions: [escalateEx('x', lit(true)), escalateEx('x', lit(false))] }),
  'semantic',
);
doc(
  'semantic-rule-outcome-undeclared',
  '§3.3: every rule outcome names a declared outcome.',
  P({ rules: [rule('r1', lit(true), 'approve')] }),
  'semantic',
);
doc(
  'semantic-fallback-undeclared',
  '§3.3: the fallback names a declared outcome.',
  P({ fallbackOutcome: 'approve' }),
  'semantic',
);
doc(
  'semantic-rule-evidence-ref-undeclared',
  '§3.3: every rule evidence reference names a declared requirement.',
  P({ rules: [rule('r1', lit(true), 'yes', 'ignore', { evidenceRequirementRefs: ['form'] })] }),
  'semantic',
);
doc(
  'semantic-rule-source-ref-undeclared',
  '§3.3: every rule source reference names a declared source.',
  P({ rules: [rule('r1', lit(true), 'yes', 'ignore', { sourceRefs: ['law'] })] }),
  'semantic',
);
doc(
  'semantic-evidence-present-undeclared-nested',
  '§3.3: evidence-present names a declared requirement, wherever it is nested.',
  P({ rules: [rule('r1', all(lit(true), not(any(lit(false), ev('form')))), 'yes')] }),
  'semantic',
);
doc(
  'semantic-evidence-present-undeclared-applicability',
  '§3.3: the rule applies to applicability conditions too.',
  P({ applicability: ev('form') }),
  'semantic',
);
doc(
  'semantic-evidence-present-undeclared-exception',
  '§3.3: and to exception conditions.',
  P({ exceptions: [escalateEx('x1', ev('form'))] }),
  'semantic',
);
doc(
  'semantic-exception-target-undeclared',
  '§3.3: an exception target names a declared rule.',
  P({ exceptions: [suppress('x1', lit(true), 'r9')] }),
  'semantic',
);
doc(
  'semantic-exception-target-is-outcome',
  '§3.3: referenced kinds are correct; "yes" is an outcome, not a rule.',
  P({ exceptions: [suppress('x1', lit(true), 'yes')] }),
  'semantic',
);
doc(
  'semantic-exception-outcome-undeclared',
  '§3.3: a forced outcome names a declared outcome.',
  P({ exceptions: [force('x1', lit(true), 'approve')] }),
  'semantic',
);
doc(
  'semantic-exception-outcome-is-rule',
  '§3.3: a forced outcome naming a rule id is the wrong kind.',
  P({ exceptions: [force('x1', lit(true), 'r1')] }),
  'semantic',
);
doc(
  'semantic-exception-source-undeclared',
  '§3.3: exception source references name declared sources.',
  P({ exceptions: [{ ...escalateEx('x1', lit(true)), sourceRefs: ['law'] }] }),
  'semantic',
);
doc(
  'semantic-rule-evidence-ref-is-source',
  '§3.3: an evidence reference naming a source id is the wrong kind.',
  P({
    sources: [{ id: 'law', title: 'Law', locator: { kind: 'other', value: 'x' } }],
    rules: [rule('r1', lit(true), 'yes', 'ignore', { evidenceRequirementRefs: ['law'] })],
  }),
  'semantic',
);
doc(
  'semantic-required-extension-undeclared',
  '§9: every required extension appears as a key in some extensions object.',
  P({ metadata: { requiredExtensions: ['com.example.policy'] } }),
  'semantic',
);
doc(
  'semantic-required-extension-other-key',
  '§9: a different extension key does not declare the required one.',
  P({ metadata: { requiredExtensions: ['com.example.policy'] }, extensions: { 'com.example.other': 1 } }),
  'semantic',
);
doc(
  'route-triggers-not-subset',
  "§6.7: route triggers MUST be a subset of the escalation triggers, so the pack is not conformant. The layer is not asserted: §3.2 (schema-adjacent requirements) and §3.3 (cross-field constraints of §§4–6) can both be read to cover it, and the spec leaves the choice to the validator's ADR.",
  P({ escalation: { triggers: ['conflict'], routes: [route(target('queue', 'A'), ['unknown'])] } }),
  'semantic',
  { expectedClass: undefined },
);
doc(
  'semantic-evidence-present-is-outcome',
  '§3.3: evidence-present naming an outcome id is the wrong kind.',
  P({ rules: [rule('r1', ev('yes'), 'yes')] }),
  'semantic',
);

// ---- §4.1 profile negotiation with a reader that supports only base ----------------------------------------------
doc(
  'profile-unsupported-extended',
  '§4.1: a reader supporting only base returns exactly one diagnostic {"code":"profile-unsupported","profile":"extended"} for an extended declaration.',
  P({ profile: 'extended' }),
  'structural',
  {
    expectedClass: undefined,
    readerProfiles: ['base'],
    expectedDiagnostics: [{ code: 'profile-unsupported', profile: 'extended' }],
  },
);
doc(
  'profile-unsupported-before-other-errors',
  '§4.1: negotiation is the first admission step: an extended pack that is also semantically broken still yields only profile-unsupported.',
  P({ profile: 'extended', rules: [rule('r1', lit(true), 'nope')] }),
  'structural',
  {
    expectedClass: undefined,
    readerProfiles: ['base'],
    expectedDiagnostics: [{ code: 'profile-unsupported', profile: 'extended' }],
  },
);
doc(
  'profile-unsupported-implicit-base',
  '§4.1: "the same rule applies to implicit base": a reader supporting only extended refuses a pack without profile as profile-unsupported base.',
  P(),
  'structural',
  {
    expectedClass: undefined,
    readerProfiles: ['extended'],
    expectedDiagnostics: [{ code: 'profile-unsupported', profile: 'base' }],
  },
);
doc(
  'profile-unsupported-malformed-json-keeps-syntax',
  '§4.1: malformed JSON retains its syntax refusal; negotiation never runs on it.',
  raw('{"profile":"extended",'),
  'carrier',
  { readerProfiles: ['base'] },
);

/** The example packs are documents too: each must be conformant. */
function exampleCases(root: string): DocCaseDef[] {
  return readdirSync(`${root}/examples`)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({
      id: `valid-example-${f.replace(/\.json$/, '')}`,
      description: `examples/${f} is a conformant pack (examples/README.md).`,
      document: raw(readFileSync(`${root}/examples/${f}`)),
      expectedConformant: true,
      expectedClass: 'valid' as const,
    }));
}

export function documentCases(root: string): DocCaseDef[] {
  return [...cases, ...exampleCases(root)];
}
