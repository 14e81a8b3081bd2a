/**
 * The ledger message (core/pipeline/ledger-message.ts, `docket.ledger-message/1`;
 * docs/adr/0497-a-ledger-message-carries-many-requests.md): the one serializer, the strict reader, the format test
 * and the packing of an intake batch. Queue messages are untrusted, so every rule of the reader is tried with bytes
 * that break it alone, on a header otherwise in RFC 8785 form (so that without the rule the message would be read).
 */
import canonicalize from 'canonicalize';
import { describe, expect, it } from 'vitest';
import {
  isLedgerMessage,
  LEDGER_MESSAGE_FILL_BYTES,
  LEDGER_MESSAGE_FORMAT,
  ledgerMessageBytes,
  MAX_LEDGER_MESSAGE_BYTES,
  MAX_LEDGER_MESSAGE_REQUESTS,
  packLedgerMessages,
  readLedgerMessage,
  type SequencedRequest,
} from '../../core/pipeline/ledger-message.js';

const utf8 = (s: string): number => new TextEncoder().encode(s).length;
const id = (i: number): string => `0b3c6c1e-5f2a-4d7e-9a41-${String(i).padStart(12, '0')}`;
/** A request as the sequence function reads it; `sent` null: the intake message had no SentTimestamp. */
const req = (body: string, i = 0, sent: string | null = '1765090000000'): SequencedRequest => ({
  body,
  intakeMessageId: id(i),
  ...(sent !== null ? { intakeSentTimestamp: sent } : {}),
});

/** The serializer's bytes, which must exist. */
function bytesOf(requests: readonly SequencedRequest[]): string {
  const b = ledgerMessageBytes(requests);
  if (!b.ok) throw new Error(b.error.message);
  return b.value;
}

/** Why the serializer refuses, or undefined when it does not. */
function serializerRefusal(requests: readonly SequencedRequest[]): string | undefined {
  const b = ledgerMessageBytes(requests);
  if (b.ok) return undefined;
  expect(b.error.code).toBe('ledger-message-invalid');
  return b.error.message;
}

/** Why the reader refuses, or undefined when it reads the message. */
function readerRefusal(body: string): string | undefined {
  const r = readLedgerMessage(body);
  if (r.ok) return undefined;
  expect(r.error.code).toBe('ledger-message-invalid');
  return r.error.message;
}

/** A message of a header (written in RFC 8785 form) and the bytes after its line. */
const message = (header: unknown, tail: string): string => `${canonicalize(header)!}\n${tail}`;
const member = (bytes: unknown, extra: Record<string, unknown> = {}) => ({ bytes, intakeMessageId: id(0), ...extra });
const one = (m: unknown, tail: string): string => message({ format: LEDGER_MESSAGE_FORMAT, requests: [m] }, tail);

describe('a ledger message round-trips its requests byte for byte', () => {
  it('writes the RFC 8785 header line and then the bodies unescaped', () => {
    const text = bytesOf([req('{"a":1}', 1), req('x', 2, null)]);
    expect(text).toBe(
      `{"format":"${LEDGER_MESSAGE_FORMAT}","requests":[` +
        `{"bytes":7,"intakeMessageId":"${id(1)}","intakeSentTimestamp":"1765090000000"},` +
        `{"bytes":1,"intakeMessageId":"${id(2)}"}]}\n{"a":1}x`,
    );
  });

  it('reads back every body exactly: multi-byte and astral characters, newlines, quotes, backslashes, empty', () => {
    const bodies = [
      '{"requestId":"é-ü-ß","facts":{"name":"Zoë"}}',
      '{"emoji":"😀🧾","han":"帳簿"}',
      'line one\nline two\r\n\n',
      '"quoted" \\ back\\slash \u0000 nul',
      '',
      '\n{"format":"docket.ledger-message/1","requests":[]}\n',
      '𝄞',
    ];
    const requests = bodies.map((b, i) => req(b, i, i % 2 === 0 ? String(1765090000000 + i) : null));
    const text = bytesOf(requests);
    expect(readLedgerMessage(text)).toEqual({ ok: true, value: requests });
    const header = JSON.parse(text.slice(0, text.indexOf('\n'))) as { requests: { bytes: number }[] };
    expect(header.requests.map((m) => m.bytes)).toEqual(bodies.map(utf8));
  });

  it('reads a message of a single empty body', () => {
    const text = bytesOf([req('', 7)]);
    expect(text.endsWith('\n')).toBe(true);
    expect(readLedgerMessage(text)).toEqual({ ok: true, value: [req('', 7)] });
  });

  it('takes 1 and 100 requests', () => {
    expect(serializerRefusal([req('a')])).toBeUndefined();
    const hundred = Array.from({ length: MAX_LEDGER_MESSAGE_REQUESTS }, (_, i) => req(`r${i}`, i));
    expect(readLedgerMessage(bytesOf(hundred))).toEqual({ ok: true, value: hundred });
  });

  it('takes a message of exactly the size limit', () => {
    const header = bytesOf([req('', 0)]).length;
    const body = 'x'.repeat(MAX_LEDGER_MESSAGE_BYTES - header - 6); // "bytes":0 becomes "bytes":1048xxx: 6 more digits
    const text = bytesOf([req(body, 0)]);
    expect(utf8(text)).toBe(MAX_LEDGER_MESSAGE_BYTES);
    expect(readLedgerMessage(text).ok).toBe(true);
  });
});

describe('the serializer emits nothing for requests that cannot be one message, and says why', () => {
  it('refuses no requests and more than 100', () => {
    expect(serializerRefusal([])).toBe('a ledger message carries 1 to 100 requests');
    const many = Array.from({ length: MAX_LEDGER_MESSAGE_REQUESTS + 1 }, (_, i) => req('{}', i));
    expect(serializerRefusal(many)).toBe('a ledger message carries 1 to 100 requests');
  });

  it('refuses an intake message id that is not an SQS message id', () => {
    for (const bad of ['', 'has space', 'x'.repeat(129), 'tab\tid', 'é'])
      expect(serializerRefusal([req('{}', 0), { body: '{}', intakeMessageId: bad }])).toBe(
        'requests[1].intakeMessageId is not a message id',
      );
    expect(serializerRefusal([{ body: '{}', intakeMessageId: 'x'.repeat(128) }])).toBeUndefined();
  });

  it('refuses a sent timestamp that is not epoch milliseconds in decimal', () => {
    for (const bad of ['', '-1', '12.5', '1e3', '0123', '1'.repeat(17), ' 1'])
      expect(serializerRefusal([req('{}', 0, bad)])).toBe('requests[0].intakeSentTimestamp is not epoch milliseconds');
    expect(serializerRefusal([req('{}', 0, '0')])).toBeUndefined();
  });

  it('refuses a body with a lone surrogate, which has no UTF-8 bytes', () => {
    expect(serializerRefusal([req('{}'), req('{"x":"\uD800"}', 1)])).toBe(
      'requests[1].body is not well-formed Unicode',
    );
    expect(serializerRefusal([req('\uDC00')])).toBe('requests[0].body is not well-formed Unicode');
  });

  it('refuses requests that make more than 1 MiB, counting UTF-8 bytes', () => {
    // 1 MiB of body in half as many characters, plus its header line (7 digits of byte count where "0" has 1).
    const size = MAX_LEDGER_MESSAGE_BYTES + utf8(bytesOf([req('', 0)])) + 6;
    expect(serializerRefusal([req('é'.repeat(MAX_LEDGER_MESSAGE_BYTES / 2))])).toBe(
      `a ledger message is at most 1048576 bytes, these requests make ${size}`,
    );
  });
});

describe('the reader refuses a message that breaks any rule of the format, and says which', () => {
  it('refuses a message with no header line', () => {
    expect(readerRefusal(`{"format":"${LEDGER_MESSAGE_FORMAT}","requests":[{"bytes":0,"intakeMessageId":"a"}]}`)).toBe(
      'a ledger message has a header line',
    );
  });

  it('refuses a header that is not strict JSON', () => {
    const dup = `{"format":"${LEDGER_MESSAGE_FORMAT}","requests":[{"bytes":0,"intakeMessageId":"a","intakeMessageId":"b"}]}\n`;
    expect(readerRefusal(dup)).toMatch(/^the header is not JSON: /);
    expect(readerRefusal(`{"format":"${LEDGER_MESSAGE_FORMAT}","requests":[\n`)).toMatch(/^the header is not JSON: /);
    expect(readerRefusal('\n')).toMatch(/^the header is not JSON: /);
  });

  it('refuses another format, or a header that is no object', () => {
    expect(readerRefusal(message({ format: 'docket.ledger-message/2', requests: [member(0)] }, ''))).toBe(
      `format must be ${LEDGER_MESSAGE_FORMAT}`,
    );
    expect(readerRefusal(message({ requests: [member(0)] }, ''))).toBe(`format must be ${LEDGER_MESSAGE_FORMAT}`);
    expect(readerRefusal(`[${JSON.stringify(LEDGER_MESSAGE_FORMAT)}]\n`)).toBe(
      `format must be ${LEDGER_MESSAGE_FORMAT}`,
    );
  });

  it('refuses a header with a member other than format and requests, or without requests', () => {
    expect(readerRefusal(message({ format: LEDGER_MESSAGE_FORMAT, requests: [member(0)], x: 1 }, ''))).toBe(
      'the header has exactly format and requests',
    );
    expect(readerRefusal(message({ format: LEDGER_MESSAGE_FORMAT }, ''))).toBe(
      'the header has exactly format and requests',
    );
  });

  it('refuses a requests member that is no array, or holds no request or more than 100', () => {
    const expected = 'requests is an array of 1 to 100';
    expect(readerRefusal(message({ format: LEDGER_MESSAGE_FORMAT, requests: member(0) }, ''))).toBe(expected);
    expect(readerRefusal(message({ format: LEDGER_MESSAGE_FORMAT, requests: [] }, ''))).toBe(expected);
    const many = Array.from({ length: MAX_LEDGER_MESSAGE_REQUESTS + 1 }, () => member(0));
    expect(readerRefusal(message({ format: LEDGER_MESSAGE_FORMAT, requests: many }, ''))).toBe(expected);
  });

  it('refuses a request member that is no object, or misses a member, or has one more', () => {
    expect(readerRefusal(one([0, id(0)], ''))).toBe('requests[0] is an object');
    const names = 'requests[0] has exactly bytes, intakeMessageId and optionally intakeSentTimestamp';
    expect(readerRefusal(one({ intakeMessageId: id(0) }, ''))).toBe(names);
    expect(readerRefusal(one({ bytes: 0 }, ''))).toBe(names);
    expect(readerRefusal(one({ bytes: 0, intakeSentTimestamp: '1' }, ''))).toBe(names);
    expect(readerRefusal(one(member(0, { requestId: 'r-1' }), ''))).toBe(names);
    expect(readerRefusal(one(member(0, { intakeSentTimestamp: '1', groupId: 'log-0' }), ''))).toBe(names);
  });

  it('refuses a byte count that is not a non-negative safe integer', () => {
    for (const bad of [-1, 1.5, '2', null, 2 ** 53])
      expect(readerRefusal(one(member(bad), 'ab'))).toBe('requests[0].bytes is a byte count');
  });

  it('refuses an intake message id that is not an SQS message id', () => {
    for (const bad of [5, '', 'has space', 'x'.repeat(129), null])
      expect(readerRefusal(one({ bytes: 0, intakeMessageId: bad }, ''))).toBe(
        'requests[0].intakeMessageId is not a message id',
      );
  });

  it('refuses a sent timestamp that is not epoch milliseconds in decimal text', () => {
    for (const bad of [1765090000000, '-1', '12.5', '0123', '', null])
      expect(readerRefusal(one(member(0, { intakeSentTimestamp: bad }), ''))).toBe(
        'requests[0].intakeSentTimestamp is not epoch milliseconds',
      );
  });

  it('refuses a header that is strict JSON but not in RFC 8785 form', () => {
    const canonical = bytesOf([req('{}', 0)]);
    expect(readerRefusal(canonical)).toBeUndefined();
    const variants = [
      canonical.replace('{"format":', '{ "format":'),
      canonical.replace('"bytes":2', '"bytes":2.0'),
      canonical.replace('"bytes":2', '"bytes":2e0'),
      canonical.replace(`"intakeMessageId":"${id(0)}"`, `"intakeMessageId":"\\u0030${id(0).slice(1)}"`),
      canonical.replace(
        `"intakeMessageId":"${id(0)}","intakeSentTimestamp":"1765090000000"`,
        `"intakeSentTimestamp":"1765090000000","intakeMessageId":"${id(0)}"`,
      ),
      `{"requests":${canonical.slice(canonical.indexOf('['), canonical.indexOf('\n') - 1)},"format":"${LEDGER_MESSAGE_FORMAT}"}\n{}`,
    ];
    for (const v of variants) {
      expect(v).not.toBe(canonical);
      expect(readerRefusal(v)).toBe('the header is not in RFC 8785 form');
    }
  });

  it('refuses a byte count that runs past the end of the message', () => {
    expect(readerRefusal(one(member(3), 'ab'))).toBe('requests[0] runs past the end of the message');
    const two = message({ format: LEDGER_MESSAGE_FORMAT, requests: [member(1), member(2)] }, 'ab');
    expect(readerRefusal(two)).toBe('requests[1] runs past the end of the message');
  });

  it('refuses bytes after the last request', () => {
    expect(readerRefusal(one(member(1), 'ab'))).toBe('1 bytes follow the last request');
    expect(readerRefusal(bytesOf([req('{}')]) + '\n')).toBe('1 bytes follow the last request');
  });

  it('refuses a byte count that splits a multi-byte character', () => {
    const two = message({ format: LEDGER_MESSAGE_FORMAT, requests: [member(1), member(3)] }, 'éab');
    expect(readerRefusal(two)).toBe('requests[0] does not end on a character boundary');
    expect(readerRefusal(one(member(4), '😀'))).toBeUndefined();
    expect(readerRefusal(one(member(2), '😀'))).toBe('requests[0] does not end on a character boundary');
  });

  it('refuses a message over 1 MiB, even one whose header and bodies agree', () => {
    const body = 'x'.repeat(MAX_LEDGER_MESSAGE_BYTES);
    expect(readerRefusal(one(member(body.length), body))).toBe('a ledger message is at most 1048576 bytes');
  });
});

describe('whether a ledger queue body is a ledger message', () => {
  it('is a ledger message when it opens with the header the serializer writes', () => {
    expect(isLedgerMessage(bytesOf([req('{}')]))).toBe(true);
    // The reader then decides: a body that opens like one and breaks the format is an invalid message.
    expect(isLedgerMessage(`{"format":"${LEDGER_MESSAGE_FORMAT}","requests":[`)).toBe(true);
  });

  it('is one request’s bytes otherwise: a request, an empty body, or another spelling of the header', () => {
    const request = '{"format":"docket.request/1","requestId":"r-1","pack":"p","facts":{}}';
    for (const body of [request, '', 'not json', ` ${bytesOf([req('{}')])}`, bytesOf([req('{}')]).replace(':', ': ')])
      expect(isLedgerMessage(body)).toBe(false);
  });
});

describe('an intake batch packed into ledger messages', () => {
  const sizes = (packs: ReturnType<typeof packLedgerMessages>) => packs.map((p) => p.indexes);
  const sent = (packs: ReturnType<typeof packLedgerMessages>): string[] =>
    packs.map((p) => {
      if (!p.bytes.ok) throw new Error(p.bytes.error.message);
      return p.bytes.value;
    });

  it('fills a message while it stays within 256 KiB', () => {
    const body = 'x'.repeat(100 * 1024);
    const requests = Array.from({ length: 5 }, (_, i) => req(body, i));
    const packs = packLedgerMessages(requests);
    expect(sizes(packs)).toEqual([[0, 1], [2, 3], [4]]);
    for (const text of sent(packs)) expect(utf8(text)).toBeLessThanOrEqual(LEDGER_MESSAGE_FILL_BYTES);
  });

  it('counts UTF-8 bytes, not characters, when it fills a message', () => {
    const body = 'é'.repeat(50 * 1024); // 100 KiB of UTF-8 in 50 Ki characters
    expect(sizes(packLedgerMessages([req(body, 0), req(body, 1), req(body, 2)]))).toEqual([[0, 1], [2]]);
  });

  it('puts at most 100 requests in a message', () => {
    const requests = Array.from({ length: 250 }, (_, i) => req(`{"n":${i}}`, i));
    const packs = packLedgerMessages(requests);
    expect(packs.map((p) => p.indexes.length)).toEqual([100, 100, 50]);
  });

  it('sends a request larger than the fill in a message of its own, between its neighbours', () => {
    const big = 'b'.repeat(LEDGER_MESSAGE_FILL_BYTES + 1);
    const packs = packLedgerMessages([req('a', 0), req('a', 1), req(big, 2), req('c', 3)]);
    expect(sizes(packs)).toEqual([[0, 1], [2], [3]]);
    expect(readLedgerMessage(sent(packs)[1]!)).toEqual({ ok: true, value: [req(big, 2)] });
  });

  it('keeps the batch order: the messages in turn carry every request once, each message reading back its own', () => {
    const requests = Array.from({ length: 37 }, (_, i) => req(i % 5 === 0 ? 'y'.repeat(90_000) : `{"i":${i}}`, i));
    const packs = packLedgerMessages(requests);
    expect(packs.flatMap((p) => p.indexes)).toEqual(requests.map((_r, i) => i));
    for (const [k, text] of sent(packs).entries())
      expect(readLedgerMessage(text)).toEqual({ ok: true, value: packs[k]!.indexes.map((i) => requests[i]) });
  });

  it('answers a request too large for any message as not sendable, alone, and packs the others', () => {
    const huge = 'h'.repeat(MAX_LEDGER_MESSAGE_BYTES);
    const packs = packLedgerMessages([req('a', 0), req(huge, 1), req('c', 2)]);
    expect(sizes(packs)).toEqual([[0], [1], [2]]);
    expect(packs.map((p) => p.bytes.ok)).toEqual([true, false, true]);
    expect(packs[1]!.bytes.ok ? '' : packs[1]!.bytes.error.message).toMatch(
      /^a ledger message is at most 1048576 bytes/,
    );
  });

  it('packs nothing from an empty batch', () => {
    expect(packLedgerMessages([])).toEqual([]);
  });
});
