import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type SimRequest, Simulation } from '../../../src/core/sim';
import {
  csvField,
  REQUEST_COLUMNS,
  type RequestRecord,
  requestRecord,
  requestsCsv,
  runToJson,
  type SimRequestLike,
  seriesCsv,
  toCsv,
} from '../../../src/core/export';
import { parseScenarioText } from '../../../src/scenario';

/** A small RFC 4180 reader, only for checking what toCsv writes. */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = '';
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') endField();
    else if (ch === '\r' && text[i + 1] === '\n') {
      endField();
      rows.push(row);
      row = [];
      i++;
    } else field += ch;
  }
  if (field !== '' || row.length > 0) {
    endField();
    rows.push(row);
  }
  return rows;
}

describe('CSV (RFC 4180)', () => {
  it('quotes exactly the fields that need it and doubles inner quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\r')).toBe('"cr\r"');
    expect(csvField(1.5)).toBe('1.5');
    expect(csvField(-0)).toBe('0');
    expect(csvField(Number.NaN)).toBe('');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField(true)).toBe('true');
  });

  it('writes a header, CRLF line ends, and columns in first-mention order unless given', () => {
    const rows = [
      { b: 1, a: 'x' },
      { a: 'y', c: null },
    ];
    expect(toCsv(rows)).toBe('b,a,c\r\n1,x,\r\n,y,\r\n');
    expect(toCsv(rows, ['c', 'a'])).toBe('c,a\r\n,x\r\n,y\r\n');
    expect(toCsv([])).toBe('\r\n');
  });

  it('round-trips any strings through a standard reader', () => {
    const cell = fc.string({ unit: fc.constantFrom('a', 'Z', ',', '"', '\n', '\r', ' ', 'é', '1') });
    fc.assert(
      fc.property(fc.array(fc.tuple(cell, cell, cell), { minLength: 1, maxLength: 8 }), (grid) => {
        const rows = grid.map(([x, y, z]) => ({ x, y, z }));
        const back = readCsv(toCsv(rows));
        expect(back[0]).toEqual(['x', 'y', 'z']);
        expect(back.slice(1)).toEqual(grid.map((g) => [...g]));
      }),
      { numRuns: 200 },
    );
  });
});

describe('requests and series CSV', () => {
  it('keeps the fixed request columns first and appends extra keys', () => {
    const recs: RequestRecord[] = [
      { id: 'a#0', client: 'alice', arrival_s: 0.5, ttft_s: 0.25, state: 'done', note: 'x' },
      {
        id: 'b#0',
        client: 'bob',
        arrival_s: 1,
        completion_s: null,
        state: 'rejected',
        reason: 'limit, hard',
      },
    ];
    const lines = requestsCsv(recs).split('\r\n');
    expect(lines[0]).toBe(`${REQUEST_COLUMNS.join(',')},note,reason`);
    expect(lines[1]).toBe('a#0,alice,,,,,,done,0.5,,,,,0.25,,,,,,,,x,');
    expect(lines[2]).toBe('b#0,bob,,,,,,rejected,1,,,,,,,,,,,,,,"limit, hard"');
  });

  it('writes a wide series table: time, then each series in order', () => {
    expect(seriesCsv({ t: [0, 0.05], rows: { 'service:a': [0, 12.5], router_queue: [3, 1] } })).toBe(
      't_s,service:a,router_queue\r\n0,0,3\r\n0.05,12.5,1\r\n',
    );
  });
});

describe('a real run exported', () => {
  const text = `version: 1
name: export check
seed: 3
duration_s: 4
cluster: {workers: 1}
clients:
  - name: alice
    arrival: {process: constant, rate: 2}
    program: {type: single, prompt_tokens: 200, output_tokens: 8}
  - name: bob
    slo_class: batch
    arrival: {process: poisson, rate: 1}
    program: {type: single, prompt_tokens: 100, output_tokens: 4}
`;
  function run() {
    const parsed = parseScenarioText(text);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const sim = new Simulation(parsed.value);
    const records: RequestRecord[] = [];
    sim.onRequestDone = (r: SimRequest) => records.push(requestRecord(r, sim.clients));
    sim.runToEnd();
    return { sim, records };
  }

  it('one row per finished request, with consistent timestamps', () => {
    const { sim, records } = run();
    const result = sim.result();
    expect(records.length).toBe(result.requests.completed + result.requests.rejected);
    expect(records.length).toBeGreaterThan(0);
    for (const r of records) {
      expect(r.state).toBe('done');
      expect(['alice', 'bob']).toContain(r.client);
      expect(r.ttft_s).toBeCloseTo((r.first_token_s as number) - r.arrival_s, 12);
      expect(r.e2e_s as number).toBeGreaterThanOrEqual(r.ttft_s as number);
      expect(r.output_tokens).toBe(r.client === 'alice' ? 8 : 4);
    }
    const csv = requestsCsv(records);
    expect(csv.split('\r\n')).toHaveLength(records.length + 2);
    // Same seed, same bytes.
    expect(requestsCsv(run().records)).toBe(csv);
  });

  it('series and JSON export of the same run', () => {
    const { sim } = run();
    const series = sim.series.snapshot();
    const lines = seriesCsv(series).split('\r\n');
    expect(lines[0]).toBe(['t_s', ...Object.keys(series.rows)].join(','));
    expect(lines).toHaveLength(series.t.length + 2);
    const json = JSON.parse(
      runToJson(sim.result(), { kind: 'cluster', snapshot: sim.snapshot() }, { requests: [] }),
    );
    expect(json.format).toBe('fairground-run');
    expect(json.version).toBe(1);
    expect(json.result.scenario).toBe('export check');
    expect(json.snapshot.kind).toBe('cluster');
    expect(json.requests).toEqual([]);
  });

  it('typed arrays and non-finite numbers become plain JSON', () => {
    expect(JSON.parse(runToJson({ a: new Float64Array([1, 2]), b: Number.NaN }, null))).toEqual({
      format: 'fairground-run',
      version: 1,
      result: { a: [1, 2], b: null },
      snapshot: null,
    });
    const kinds = { i: new Int32Array([-3, 4]), u: new Uint8Array([7]), big: new BigInt64Array([5n, -6n]) };
    expect(JSON.parse(runToJson(kinds, null)).result).toEqual({ i: [-3, 4], u: [7], big: [5, -6] });
  });

  it('the engine request type fits the export input', () => {
    const fits = (r: SimRequest): SimRequestLike => r;
    expect(typeof fits).toBe('function');
  });
});
