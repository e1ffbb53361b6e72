// pabd's HTML player: plays the recording embedded in the page (a
// <script type="application/json" id="pabd-data">) with three.js. Bundled with
// three into one script at build time (cmake/PlayerAssets.cmake), so the page
// needs no server and no network.
//
// For tests and scripts: window.pabdPlayer = {ready, bodies, frame, meshes,
// time, duration, setTime(t), play(), pause(), select(i), bodyScreenPosition(i)}.
import { Raycaster, SRGBColorSpace, Vector2, WebGLRenderer } from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { loadRecording, locate, timeRange } from './recording.js';
import { applyFrame, buildScene } from './scene.js';
import { TimingPlot } from './plot.js';
import { buildUi, installErrorOverlay, showError } from './ui.js';

const api = { ready: false, bodies: 0, frame: 0, meshes: 0, time: 0, duration: 0 };
window.pabdPlayer = api;
installErrorOverlay();

function start() {
  const rec = loadRecording();
  const [t0, t1] = timeRange(rec);
  const ui = buildUi(rec);
  const view = buildScene(rec);
  const plot = new TimingPlot(ui.plot, rec);

  const renderer = new WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.outputColorSpace = SRGBColorSpace;
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  ui.view.append(renderer.domElement);
  const controls = new OrbitControls(view.camera, renderer.domElement);
  controls.target.copy(view.centre);
  controls.update();

  const state = { time: t0, playing: false, speed: 1, selected: -1, frame: 0 };

  function resize() {
    const w = ui.view.clientWidth || window.innerWidth;
    const h = ui.view.clientHeight || window.innerHeight;
    renderer.setSize(w, h, false);
    view.camera.aspect = w / Math.max(1, h);
    view.camera.updateProjectionMatrix();
  }

  /// Poses the scene at state.time and draws everything that depends on it.
  function render() {
    const where = locate(rec, state.time);
    applyFrame(rec, view, where);
    // The panel and marker show the recorded frame nearest to the time shown.
    state.frame = where.alpha < 0.5 ? where.f0 : where.f1;
    api.frame = state.frame;
    api.time = state.time;
    ui.scrubber.value = String(t1 > t0 ? (state.time - t0) / (t1 - t0) : 0);
    ui.setClock(state.time, state.frame, rec.frames.time.length);
    ui.showBody(state.selected, state.frame);
    plot.setStep(rec.dt > 0 ? (state.time - t0) / rec.dt : 0);
    renderer.render(view.scene, view.camera);
  }

  function setTime(t) {
    state.time = Math.min(Math.max(Number(t) || 0, t0), t1);
    render();
  }
  function setPlaying(playing) {
    state.playing = playing && t1 > t0;
    if (state.playing && state.time >= t1) state.time = t0;  // replay from the start
    ui.setPlaying(state.playing);
  }

  ui.play.addEventListener('click', () => setPlaying(!state.playing));
  ui.scrubber.addEventListener('input', () => {
    setPlaying(false);
    setTime(t0 + Number(ui.scrubber.value) * (t1 - t0));
  });
  ui.speed.addEventListener('change', () => (state.speed = Number(ui.speed.value)));
  ui.joints.addEventListener('change', () => {
    view.joints.visible = ui.joints.checked;
    render();
  });
  window.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLInputElement && e.target.type !== 'range') return;
    if (e.target instanceof HTMLSelectElement) return;
    if (e.code === 'Space') {
      e.preventDefault();
      setPlaying(!state.playing);
    } else if (e.key === 'j') {
      ui.joints.click();
    }
  });

  // Clicking a body (not dragging the camera) selects it; empty space clears.
  const raycaster = new Raycaster();
  let down = null;
  renderer.domElement.addEventListener('pointerdown', (e) => (down = [e.clientX, e.clientY]));
  renderer.domElement.addEventListener('pointerup', (e) => {
    if (!down || Math.hypot(e.clientX - down[0], e.clientY - down[1]) > 4) return;
    const r = renderer.domElement.getBoundingClientRect();
    const ndc = new Vector2(((e.clientX - r.left) / r.width) * 2 - 1, -((e.clientY - r.top) / r.height) * 2 + 1);
    raycaster.setFromCamera(ndc, view.camera);
    const hit = raycaster.intersectObjects(view.meshes, false)[0];
    select(hit ? hit.object.userData.index : -1);
  });
  function select(i) {
    if (state.selected >= 0) view.meshes[state.selected].material.emissive.setHex(0x000000);
    state.selected = i;
    if (i >= 0) view.meshes[i].material.emissive.setHex(0x333333);
    render();
  }

  window.addEventListener('resize', () => {
    resize();
    plot.background = null;
    render();
  });

  let last = performance.now();
  function tick(now) {
    const elapsed = Math.min(0.1, (now - last) / 1000);  // no jump after a hidden tab
    last = now;
    if (state.playing) {
      state.time += elapsed * state.speed;
      if (state.time >= t1) state.time = t0 + (state.time - t1);  // loop
    }
    controls.update();
    render();
    requestAnimationFrame(tick);
  }

  Object.assign(api, {
    bodies: rec.bodies.length,
    meshes: view.meshes.length,
    duration: t1 - t0,
    setTime,
    play: () => setPlaying(true),
    pause: () => setPlaying(false),
    select,
    /// Where body i's centre is on the page (CSS pixels), for tests that click it.
    bodyScreenPosition(i) {
      const p = view.meshes[i].position.clone().project(view.camera);
      const r = renderer.domElement.getBoundingClientRect();
      return { x: r.left + ((p.x + 1) / 2) * r.width, y: r.top + ((1 - p.y) / 2) * r.height };
    },
  });
  resize();
  setPlaying(true);
  render();
  api.ready = true;
  requestAnimationFrame(tick);
}

try {
  start();
} catch (e) {
  showError(e?.stack || e);
  console.error(e);  // tests collect console errors

}
