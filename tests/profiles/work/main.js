// The node profile's workload (tests/profiles/run.sh): hash the file in the
// input slot (streamed through crypto), wait on timers through promises,
// and write the result to the output slot as JSON.
'use strict';
const crypto = require('crypto');
const fs = require('fs');
const { setTimeout: sleep, setImmediate: immediate } = require('timers/promises');

function hashFile(path, algo) {
  return new Promise((resolve, reject) => {
    const h = crypto.createHash(algo);
    fs.createReadStream(path)
      .on('error', reject)
      .on('data', (chunk) => h.update(chunk))
      .on('end', () => resolve(h.digest('hex')));
  });
}

async function main() {
  const order = [];
  const timers = Promise.all([
    sleep(300).then(() => order.push('timeout300')),
    sleep(10).then(() => order.push('timeout10')),
    immediate().then(() => order.push('immediate')),
  ]);
  const [sha256, sha1, stat] = await Promise.all([
    hashFile('/input/blob.bin', 'sha256'),
    hashFile('/input/blob.bin', 'sha1'),
    fs.promises.stat('/input/blob.bin'),
  ]);
  await timers;
  const result = { file: 'blob.bin', bytes: stat.size, sha256, sha1, order };
  await fs.promises.writeFile('/output/hash.json', JSON.stringify(result) + '\n');
  console.log('hashed', stat.size, 'bytes');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
