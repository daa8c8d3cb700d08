import { HDKey } from '@scure/bip32';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { createECDH, createHmac, ECDH } from 'node:crypto';
import { publicKeyToAddress } from 'viem/accounts';
import { bytesToHex } from 'viem';
const seed = new Uint8Array(32).fill(7);
const xpub = HDKey.fromMasterSeed(seed).derive("m/44'/60'/0'").publicExtendedKey;
const parent = HDKey.fromExtendedKey(xpub).deriveChild(2).deriveChild(0);
const P = secp256k1.Point;
const parentPoint = P.fromBytes(parent.publicKey!);
const chain = Buffer.from(parent.chainCode!);
const pub = Buffer.from(parent.publicKey!);
const ecdh = createECDH('secp256k1');
function tweakOf(i: number) {
  const data = Buffer.alloc(37); pub.copy(data); data.writeUInt32BE(i, 33);
  return createHmac('sha512', chain).update(data).digest().subarray(0, 32);
}
function viaOpenssl(i: number): string {
  ecdh.setPrivateKey(tweakOf(i));
  const child = parentPoint.add(P.fromBytes(ecdh.getPublicKey())).toBytes(false);
  return publicKeyToAddress(bytesToHex(child));
}
function viaNobleUnsafe(i: number): string {
  const t = BigInt('0x' + tweakOf(i).toString('hex'));
  const child = parentPoint.add(P.BASE.multiplyUnsafe(t)).toBytes(false);
  return publicKeyToAddress(bytesToHex(child));
}
function current(i: number): string {
  const c = parent.deriveChild(i).publicKey!;
  const un = ECDH.convertKey(Buffer.from(c), 'secp256k1', undefined, undefined, 'uncompressed') as Buffer;
  return publicKeyToAddress(bytesToHex(new Uint8Array(un)));
}
for (let i = 0; i < 50; i++) { const a = current(i); if (a !== viaOpenssl(i) || a !== viaNobleUnsafe(i)) throw new Error('mismatch ' + i); }
const N = 1000;
for (const [name, f] of [['current', current], ['openssl', viaOpenssl], ['nobleUnsafe', viaNobleUnsafe], ['current', current], ['openssl', viaOpenssl], ['nobleUnsafe', viaNobleUnsafe]] as const) {
  const c0 = process.cpuUsage();
  for (let i = 0; i < N; i++) f(i + 100);
  const c = process.cpuUsage(c0);
  console.log(name, 'cpu µs/derive', ((c.user + c.system) / N).toFixed(0));
}
