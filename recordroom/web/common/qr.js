// A QR code (model 2, byte mode, error correction level M, versions 1 to 10) drawn as SVG in the
// page, for links that must not go through the server as a picture address (a seat's link carries
// its secret token). Written from the QR code standard (ISO/IEC 18004): encode, add Reed-Solomon
// error correction, interleave, place, mask with the pattern of lowest penalty.

// Level M, per version: [error correction codewords per block, [blocks, data codewords]...].
const BLOCKS_M = [
  null,
  [10, [1, 16]],
  [16, [1, 28]],
  [26, [1, 44]],
  [18, [2, 32]],
  [24, [2, 43]],
  [16, [4, 27]],
  [18, [4, 31]],
  [22, [2, 38], [2, 39]],
  [22, [3, 36], [2, 37]],
  [26, [4, 43], [1, 44]],
];
const ALIGNMENT = [
  null,
  [],
  [6, 18],
  [6, 22],
  [6, 26],
  [6, 30],
  [6, 34],
  [6, 22, 38],
  [6, 24, 42],
  [6, 26, 46],
  [6, 28, 50],
];
const LEVEL_M_BITS = 0b00;

// ---- arithmetic in GF(256) with the polynomial x^8 + x^4 + x^3 + x^2 + 1 --------------------
const EXP = new Uint8Array(512);
const LOG = new Uint8Array(256);
{
  let x = 1;
  for (let i = 0; i < 255; i += 1) {
    EXP[i] = x;
    LOG[x] = i;
    x <<= 1;
    if (x & 0x100) x ^= 0x11d;
  }
  for (let i = 255; i < 512; i += 1) EXP[i] = EXP[i - 255];
}
const times = (a, b) => (a === 0 || b === 0 ? 0 : EXP[LOG[a] + LOG[b]]);

/** The generator polynomial of `degree` error codewords, highest power first (leading 1 left out). */
function generator(degree) {
  let poly = [1];
  for (let i = 0; i < degree; i += 1) {
    const next = new Array(poly.length + 1).fill(0);
    for (let j = 0; j < poly.length; j += 1) {
      next[j] ^= poly[j];
      next[j + 1] ^= times(poly[j], EXP[i]);
    }
    poly = next;
  }
  return poly.slice(1);
}

/** The error correction codewords of a block: the remainder of data * x^n divided by the generator. */
function errorWords(data, degree) {
  const gen = generator(degree);
  const rest = new Array(degree).fill(0);
  for (const byte of data) {
    const factor = byte ^ rest.shift();
    rest.push(0);
    for (let i = 0; i < degree; i += 1) rest[i] ^= times(gen[i], factor);
  }
  return rest;
}

// ---- the codewords --------------------------------------------------------------------------

const dataCapacity = (version) =>
  BLOCKS_M[version].slice(1).reduce((sum, [n, k]) => sum + n * k, 0);

function codewords(bytes, version) {
  const bits = [];
  const put = (value, length) => {
    for (let i = length - 1; i >= 0; i -= 1) bits.push((value >>> i) & 1);
  };
  put(0b0100, 4); // byte mode
  put(bytes.length, version < 10 ? 8 : 16);
  for (const byte of bytes) put(byte, 8);
  const capacity = dataCapacity(version) * 8;
  put(0, Math.min(4, capacity - bits.length)); // terminator
  while (bits.length % 8) bits.push(0);
  const data = [];
  for (let i = 0; i < bits.length; i += 8)
    data.push(bits.slice(i, i + 8).reduce((v, b) => (v << 1) | b, 0));
  for (let pad = 0xec; data.length < capacity / 8; pad ^= 0xec ^ 0x11) data.push(pad);
  // Split into blocks, add each block's error words, then interleave column by column.
  const [ecPerBlock, ...groups] = BLOCKS_M[version];
  const blocks = [];
  let at = 0;
  for (const [count, size] of groups) {
    for (let b = 0; b < count; b += 1) {
      const block = data.slice(at, at + size);
      at += size;
      blocks.push({ data: block, ec: errorWords(block, ecPerBlock) });
    }
  }
  const out = [];
  const longest = Math.max(...blocks.map((b) => b.data.length));
  for (let i = 0; i < longest; i += 1)
    for (const b of blocks) if (i < b.data.length) out.push(b.data[i]);
  for (let i = 0; i < ecPerBlock; i += 1) for (const b of blocks) out.push(b.ec[i]);
  return out;
}

// ---- the symbol -----------------------------------------------------------------------------

const MASKS = [
  (r, c) => (r + c) % 2 === 0,
  (r) => r % 2 === 0,
  (_r, c) => c % 3 === 0,
  (r, c) => (r + c) % 3 === 0,
  (r, c) => (Math.floor(r / 2) + Math.floor(c / 3)) % 2 === 0,
  (r, c) => ((r * c) % 2) + ((r * c) % 3) === 0,
  (r, c) => (((r * c) % 2) + ((r * c) % 3)) % 2 === 0,
  (r, c) => (((r + c) % 2) + ((r * c) % 3)) % 2 === 0,
];

/** BCH code: `value` followed by the remainder of value * x^(bits) divided by `poly`. */
function bch(value, poly, bits) {
  let rest = value << bits;
  const top = Math.floor(Math.log2(poly));
  for (let i = Math.floor(Math.log2(rest || 1)); i >= top; i -= 1) {
    if (rest & (1 << i)) rest ^= poly << (i - top);
  }
  return (value << bits) | rest;
}

class QrSymbol {
  constructor(version) {
    this.version = version;
    this.size = 17 + 4 * version;
    this.dark = Array.from({ length: this.size }, () => new Array(this.size).fill(false));
    this.fixed = Array.from({ length: this.size }, () => new Array(this.size).fill(false));
    this.drawPatterns();
  }

  set(r, c, dark) {
    this.dark[r][c] = dark;
    this.fixed[r][c] = true;
  }

  drawPatterns() {
    const n = this.size;
    for (let i = 0; i < n; i += 1) {
      this.set(6, i, i % 2 === 0);
      this.set(i, 6, i % 2 === 0);
    }
    for (const [r0, c0] of [
      [0, 0],
      [0, n - 7],
      [n - 7, 0],
    ]) {
      for (let r = -1; r <= 7; r += 1) {
        for (let c = -1; c <= 7; c += 1) {
          const rr = r0 + r;
          const cc = c0 + c;
          if (rr < 0 || cc < 0 || rr >= n || cc >= n) continue;
          const ring = Math.max(Math.abs(r - 3), Math.abs(c - 3));
          this.set(rr, cc, ring !== 2 && ring !== 4);
        }
      }
    }
    const centres = ALIGNMENT[this.version];
    for (const r of centres) {
      for (const c of centres) {
        if ((r === 6 && c === 6) || (r === 6 && c === n - 7) || (r === n - 7 && c === 6)) continue;
        for (let dr = -2; dr <= 2; dr += 1) {
          for (let dc = -2; dc <= 2; dc += 1)
            this.set(r + dr, c + dc, Math.max(Math.abs(dr), Math.abs(dc)) !== 1);
        }
      }
    }
    this.drawFormat(0); // reserves the format areas; drawn again with the chosen mask
    if (this.version >= 7) {
      const bits = bch(this.version, 0x1f25, 12);
      for (let i = 0; i < 18; i += 1) {
        const dark = ((bits >>> i) & 1) === 1;
        const a = n - 11 + (i % 3);
        const b = Math.floor(i / 3);
        this.set(b, a, dark);
        this.set(a, b, dark);
      }
    }
  }

  drawFormat(mask) {
    const n = this.size;
    const bits = bch((LEVEL_M_BITS << 3) | mask, 0x537, 10) ^ 0x5412;
    const bit = (i) => ((bits >>> i) & 1) === 1;
    for (let i = 0; i <= 5; i += 1) this.set(i, 8, bit(i));
    this.set(7, 8, bit(6));
    this.set(8, 8, bit(7));
    this.set(8, 7, bit(8));
    for (let i = 9; i < 15; i += 1) this.set(8, 14 - i, bit(i));
    for (let i = 0; i < 8; i += 1) this.set(8, n - 1 - i, bit(i));
    for (let i = 8; i < 15; i += 1) this.set(n - 15 + i, 8, bit(i));
    this.set(n - 8, 8, true); // the dark module
  }

  drawData(words) {
    const n = this.size;
    let index = 0;
    const total = words.length * 8;
    for (let right = n - 1; right >= 1; right -= 2) {
      if (right === 6) right = 5; // the vertical timing pattern's column is skipped
      const upward = ((right + 1) & 2) === 0;
      for (let step = 0; step < n; step += 1) {
        const r = upward ? n - 1 - step : step;
        for (const c of [right, right - 1]) {
          if (this.fixed[r][c]) continue;
          this.dark[r][c] = index < total && ((words[index >>> 3] >>> (7 - (index & 7))) & 1) === 1;
          index += 1;
        }
      }
    }
  }

  masked(mask) {
    const rule = MASKS[mask];
    const copy = new QrSymbol(this.version);
    copy.dark = this.dark.map((row, r) =>
      row.map((d, c) => (this.fixed[r][c] ? d : d !== rule(r, c))),
    );
    copy.fixed = this.fixed;
    copy.drawFormat(mask);
    return copy;
  }

  /** The standard's penalty: runs, 2x2 blocks, finder-like patterns, dark/light balance. */
  penalty() {
    const n = this.size;
    const m = this.dark;
    let score = 0;
    const lines = [];
    for (let i = 0; i < n; i += 1) {
      lines.push(m[i]);
      lines.push(m.map((row) => row[i]));
    }
    for (const line of lines) {
      let run = 1;
      for (let i = 1; i <= n; i += 1) {
        if (i < n && line[i] === line[i - 1]) run += 1;
        else {
          if (run >= 5) score += run - 2;
          run = 1;
        }
      }
      const text = line.map((d) => (d ? "1" : "0")).join("");
      for (const pattern of ["10111010000", "00001011101"]) {
        for (let at = text.indexOf(pattern); at >= 0; at = text.indexOf(pattern, at + 1))
          score += 40;
      }
    }
    for (let r = 0; r < n - 1; r += 1) {
      for (let c = 0; c < n - 1; c += 1) {
        const d = m[r][c];
        if (m[r][c + 1] === d && m[r + 1][c] === d && m[r + 1][c + 1] === d) score += 3;
      }
    }
    const darkCount = m.reduce((sum, row) => sum + row.filter(Boolean).length, 0);
    score += 10 * Math.floor(Math.abs(darkCount * 20 - n * n * 10) / (n * n));
    return score;
  }
}

/** The QR matrix of a text (UTF-8 bytes): rows of booleans (true: dark), and its version and mask. */
export function qrMatrix(text, forcedMask = null) {
  const bytes = [...new TextEncoder().encode(text)];
  let version = 1;
  while (version <= 10 && dataCapacity(version) < bytes.length + (version < 10 ? 2 : 3))
    version += 1;
  if (version > 10) throw new Error(`too long for a QR code here: ${bytes.length} bytes`);
  const base = new QrSymbol(version);
  base.drawData(codewords(bytes, version));
  let best = null;
  for (let mask = 0; mask < 8; mask += 1) {
    if (forcedMask !== null && mask !== forcedMask) continue;
    const candidate = base.masked(mask);
    const score = candidate.penalty();
    if (!best || score < best.score) best = { score, symbol: candidate, mask };
  }
  return { version, mask: best.mask, rows: best.symbol.dark };
}

/** An SVG picture of the QR code of a text, with a quiet zone of four modules. */
export function qrSvg(text) {
  const { rows } = qrMatrix(text);
  const n = rows.length + 8;
  let path = "";
  rows.forEach((row, r) => {
    row.forEach((dark, c) => {
      if (dark) path += `M${c + 4} ${r + 4}h1v1h-1z`;
    });
  });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${n} ${n}" shape-rendering="crispEdges">` +
    `<rect width="${n}" height="${n}" fill="#fff"/><path d="${path}" fill="#000"/></svg>`
  );
}
