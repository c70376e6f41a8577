// TurboSHAKE128 (RFC 9861) and XofTurboShake128 (VDAF draft-irtf-cfrg-vdaf-20, sec. 6.2.1),
// written from the specifications with no dependencies, for the worked-example adapter.
//
// Keccak-p[1600, n_r = 12] is the last 12 rounds of Keccak-f[1600] (FIPS 202, sec. 3.3):
// rounds i_r = 12 .. 23. Lanes are 64-bit BigInts; byte 8i + j of the state is byte j
// (little-endian) of lane i, lane i = x + 5 y. TurboSHAKE128 has rate 168 bytes; the message
// M is padded with the domain byte D (0x01 .. 0x7F) then 0x80 in the last byte of the block.

const MASK = (1n << 64n) - 1n;

// Round constants from the LFSR of FIPS 202 Algorithm 5 (rc) and Algorithm 6 (iota).
function rc(t) {
  if (t % 255 === 0) return 1;
  let r = 0x01;
  for (let i = 1; i <= t % 255; i++) {
    r <<= 1;
    if (r & 0x100) r ^= 0x171; // x^8 + x^6 + x^5 + x^4 + 1
  }
  return r & 1;
}
const ROUND_CONSTANTS = Array.from({ length: 24 }, (_, ir) => {
  let value = 0n;
  for (let j = 0; j <= 6; j++) {
    if (rc(j + 7 * ir)) value |= 1n << BigInt((1 << j) - 1);
  }
  return value;
});

// Rotation offsets of rho (FIPS 202 Algorithm 2).
const ROTATIONS = new Array(25).fill(0n);
{
  let x = 1, y = 0;
  for (let t = 0; t < 24; t++) {
    ROTATIONS[x + 5 * y] = BigInt((((t + 1) * (t + 2)) / 2) % 64);
    [x, y] = [y, (2 * x + 3 * y) % 5];
  }
}

const rotl = (v, n) => (n === 0n ? v : ((v << n) | (v >> (64n - n))) & MASK);

function keccakP12(a) {
  const c = new Array(5);
  const b = new Array(25);
  for (let ir = 12; ir < 24; ir++) {
    for (let x = 0; x < 5; x++) c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
    for (let x = 0; x < 5; x++) {
      const d = c[(x + 4) % 5] ^ rotl(c[(x + 1) % 5], 1n);
      for (let y = 0; y < 25; y += 5) a[x + y] ^= d;
    }
    // rho and pi: A'[y, 2x + 3y] = rot(A[x, y])
    for (let x = 0; x < 5; x++) {
      for (let y = 0; y < 5; y++) {
        b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(a[x + 5 * y], ROTATIONS[x + 5 * y]);
      }
    }
    for (let y = 0; y < 25; y += 5) {
      for (let x = 0; x < 5; x++) {
        a[x + y] = b[x + y] ^ (~b[((x + 1) % 5) + y] & MASK & b[((x + 2) % 5) + y]);
      }
    }
    a[0] ^= ROUND_CONSTANTS[ir];
  }
}

const RATE = 168;

/** TurboSHAKE128(M, D) as a stream: read(n) returns the next n output bytes. */
export class TurboShake128 {
  constructor(message, domain = 0x1f) {
    if (!(domain >= 0x01 && domain <= 0x7f)) throw new Error("domain byte must be in 0x01..0x7F");
    this.state = new Array(25).fill(0n);
    const padded = new Uint8Array(Math.floor(message.length / RATE) * RATE + RATE);
    padded.set(message);
    padded[message.length] ^= domain;
    padded[padded.length - 1] ^= 0x80;
    for (let off = 0; off < padded.length; off += RATE) {
      this.xorBlock(padded.subarray(off, off + RATE));
      keccakP12(this.state);
    }
    this.out = this.squeezeBlock();
    this.pos = 0;
  }

  xorBlock(block) {
    for (let i = 0; i < RATE / 8; i++) {
      let lane = 0n;
      for (let j = 7; j >= 0; j--) lane = (lane << 8n) | BigInt(block[8 * i + j]);
      this.state[i] ^= lane;
    }
  }

  squeezeBlock() {
    const out = new Uint8Array(RATE);
    for (let i = 0; i < RATE / 8; i++) {
      let lane = this.state[i];
      for (let j = 0; j < 8; j++) {
        out[8 * i + j] = Number(lane & 0xffn);
        lane >>= 8n;
      }
    }
    return out;
  }

  read(n) {
    const result = new Uint8Array(n);
    let filled = 0;
    while (filled < n) {
      if (this.pos === RATE) {
        keccakP12(this.state);
        this.out = this.squeezeBlock();
        this.pos = 0;
      }
      const take = Math.min(n - filled, RATE - this.pos);
      result.set(this.out.subarray(this.pos, this.pos + take), filled);
      filled += take;
      this.pos += take;
    }
    return result;
  }
}

/** XofTurboShake128(seed, dst, binder): TurboSHAKE128 with D = 1 over
 * le16(len(dst)) || dst || le8(len(seed)) || seed || binder (VDAF draft-20 sec. 6.2.1). */
export class XofTurboShake128 {
  static SEED_SIZE = 32;

  constructor(seed, dst, binder) {
    if (seed.length > 255) throw new Error(`seed of ${seed.length} bytes exceeds 255`);
    if (dst.length > 65535) throw new Error(`dst of ${dst.length} bytes exceeds 65535`);
    const m = new Uint8Array(2 + dst.length + 1 + seed.length + binder.length);
    m[0] = dst.length & 0xff;
    m[1] = dst.length >> 8;
    m.set(dst, 2);
    m[2 + dst.length] = seed.length;
    m.set(seed, 3 + dst.length);
    m.set(binder, 3 + dst.length + seed.length);
    this.ts = new TurboShake128(m, 0x01);
  }

  next(n) {
    return this.ts.read(n);
  }
}
