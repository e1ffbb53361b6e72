// Loads a .glb written by `pabd run --gltf` with three.js's own GLTFLoader (the
// loader the web uses) and checks what it builds: one mesh per body, one
// animation with a translation and a rotation track per moving body, and no
// warnings or errors from the loader.
//   node web/tests/gltf_three_test.mjs FILE.glb BODIES MOVING
import { readFileSync } from 'node:fs';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';

const [file, bodies, moving] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
const complaints = [];
console.warn = (...a) => complaints.push(`warn: ${a.join(' ')}`);
console.error = (...a) => complaints.push(`error: ${a.join(' ')}`);

const bytes = readFileSync(file);
const data = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
new GLTFLoader().parse(data, '', (gltf) => {
  let meshes = 0;
  gltf.scene.traverse((o) => { if (o.isMesh) meshes += 1; });
  const clip = gltf.animations[0];
  const tracks = clip ? clip.tracks.length : 0;
  const checks = [
    [meshes === bodies, `meshes ${meshes} == bodies ${bodies}`],
    [gltf.animations.length === 1, `animations ${gltf.animations.length} == 1`],
    [tracks === 2 * moving, `tracks ${tracks} == 2 x moving bodies ${moving}`],
    [complaints.length === 0, `loader complaints: ${complaints.length} ${complaints.join('; ')}`],
  ];
  for (const [ok, what] of checks) process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${what}\n`);
  process.exit(checks.every(([ok]) => ok) ? 0 : 1);
}, (err) => {
  process.stdout.write(`FAIL three.js could not load ${file}: ${err}\n`);
  process.exit(1);
});
