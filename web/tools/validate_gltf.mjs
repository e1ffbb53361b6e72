// Validates a glTF 2.0 file (.gltf or .glb) with the Khronos glTF-Validator and
// prints a summary plus every error and warning.
//
//   node web/tools/validate_gltf.mjs FILE
//
// Exit status: 0 = no errors (warnings allowed), 1 = errors, 2 = unreadable
// file or a validator failure.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import validator from 'gltf-validator';

const SEVERITY = ['error', 'warning', 'info', 'hint'];

async function main(path) {
  const bytes = new Uint8Array(await readFile(path));
  // Large maxIssues: a report cut short could hide an error behind warnings.
  const report = await validator.validateBytes(bytes, { uri: basename(path), maxIssues: 1000 });
  const { numErrors, numWarnings, numInfos, numHints, messages, truncated } = report.issues;
  console.log(`${path}: numErrors=${numErrors} numWarnings=${numWarnings} ` +
              `numInfos=${numInfos} numHints=${numHints}` + (truncated ? ' (truncated)' : ''));
  for (const m of messages) {
    if (m.severity > 1) continue;  // infos and hints are advice, not problems
    console.log(`  ${SEVERITY[m.severity]} ${m.code} at ${m.pointer ?? '-'}: ${m.message}`);
  }
  return numErrors > 0 ? 1 : 0;
}

if (process.argv.length !== 3) {
  console.error('usage: node validate_gltf.mjs FILE');
  process.exit(2);
}
main(process.argv[2]).then(
    (status) => process.exit(status),
    (error) => {
      console.error(`${process.argv[2]}: validation failed: ${error}`);
      process.exit(2);
    });
