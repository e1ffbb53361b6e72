// pabd's HTML player: plays the recording embedded in the page (a JSON header
// and a base64 block of binary poses, see recording.js) with three.js. Bundled
// with three into one script at build time (cmake/PlayerAssets.cmake), so the
// page needs no server and no network.
//
// For tests and scripts: window.pabdPlayer = {ready, bodies, frame, frames,
// meshes (instanced meshes: one per shape), instances, time, minTimeShown
// (the earliest time ever drawn), duration, selected,
// contacts (drawn now), recordedContacts(f), setTime(t), play(), pause(),
// select(i), showContacts(on), bodyScreenPosition(i), render(),
// fields() (the surface and cloth meshes in the scene graph: [{name, kind,
// vertices, triangles, visible}]), fieldPositions(name) (that mesh's vertex
// positions as drawn now, x y z per vertex)}.
import { Raycaster, SRGBColorSpace, Vector2, WebGLRenderer } from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { contactRange, loadRecording, locate, timeRange } from './recording.js';
import { applyFrame, buildScene } from './scene.js';
import { ContactView } from './contacts.js';
import { Selection } from './selection.js';
import { TimingPlot } from './plot.js';
import { buildUi, installErrorOverlay, showError } from './ui.js';

const api = { ready: false, bodies: 0, frame: 0, meshes: 0, time: 0, minTimeShown: Infinity, duration: 0 };
window.pabdPlayer = api;
installErrorOverlay();

/// True when WebGL runs on the CPU (the renderer's name says so, where the
/// browser tells it).
function softwareGl() {
  const gl = document.createElement('canvas').getContext('webgl2');
  if (!gl) return false;
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const name = info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : '';
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  return /swiftshader|llvmpipe|software/i.test(name);
}

function start() {
  const rec = loadRecording();
  const [t0, t1] = timeRange(rec);
  const ui = buildUi(rec);
  const view = buildScene(rec);
  const plot = new TimingPlot(ui.plot, rec);
  const contacts = new ContactView(rec, 0.04 * view.span);
  view.scene.add(contacts.object);
  const selection = new Selection(rec, view);
  view.scene.add(selection.object);

  // Multisampling costs software GL (swiftshader, llvmpipe: browsers without
  // a usable GPU) about 40% of a large scene's frame; GPUs keep it.
  const renderer = new WebGLRenderer({ antialias: !softwareGl(), preserveDrawingBuffer: true });
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
    // The panel, contacts and marker show the recorded frame nearest to the time shown.
    state.frame = where.alpha < 0.5 ? where.f0 : where.f1;
    contacts.show(state.frame);
    selection.follow();
    api.frame = state.frame;
    api.time = state.time;
    api.minTimeShown = Math.min(api.minTimeShown, state.time);
    api.contacts = contacts.object.visible ? contacts.count : 0;
    ui.scrubber.value = String(t1 > t0 ? (state.time - t0) / (t1 - t0) : 0);
    ui.setClock(state.time, state.frame, rec.frames.count);
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
  function showContacts(on) {
    contacts.object.visible = on && rec.hasContacts;
    ui.contacts.checked = contacts.object.visible;
    render();
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
  ui.contacts.addEventListener('change', () => showContacts(ui.contacts.checked));
  window.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLInputElement && e.target.type !== 'range') return;
    if (e.target instanceof HTMLSelectElement) return;
    if (e.code === 'Space') {
      e.preventDefault();
      setPlaying(!state.playing);
    } else if (e.key === 'j') {
      ui.joints.click();
    } else if (e.key === 'c' && rec.hasContacts) {
      ui.contacts.click();
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
    // The instances have moved since three last bounded them.
    for (const mesh of view.meshes) {
      mesh.computeBoundingBox();
      mesh.computeBoundingSphere();
    }
    const hit = raycaster.intersectObjects(view.meshes, false)[0];
    select(hit ? hit.object.userData.order[hit.instanceId] : -1);
  });
  function select(i) {
    state.selected = i >= 0 && i < rec.bodies.length ? i : -1;
    selection.select(state.selected);
    api.selected = state.selected;
    render();
  }

  window.addEventListener('resize', () => {
    resize();
    plot.background = null;
    render();
  });

  let last = performance.now();
  function tick(now) {
    // rAF's time stamp can precede the performance.now() read before it (a
    // long first frame): never step backwards, never jump after a hidden tab.
    const elapsed = Math.min(0.1, Math.max(0, (now - last) / 1000));
    last = Math.max(last, now);
    if (state.playing) {
      state.time += elapsed * state.speed;
      if (state.time >= t1) state.time = t0 + (state.time - t1);  // loop
      state.time = Math.min(Math.max(state.time, t0), t1);
    }
    controls.update();
    render();
    requestAnimationFrame(tick);
  }

  Object.assign(api, {
    bodies: rec.bodies.length,
    frames: rec.frames.count,
    meshes: view.meshes.length,
    instances: view.meshes.reduce((sum, mesh) => sum + mesh.count, 0),
    duration: t1 - t0,
    selected: -1,
    contacts: 0,
    recordedContacts: (f) => {
      const [begin, end] = contactRange(rec, f);
      return end - begin;
    },
    fields: () => {
      const out = [];
      view.scene.traverse((o) => {
        if (!o.isMesh || !o.userData.field) return;
        const g = o.geometry;
        out.push({ name: o.name, kind: o.userData.field, vertices: g.getAttribute('position').count, triangles: g.index.count / 3, visible: o.visible });
      });
      return out;
    },
    fieldPositions: (name) => {
      let mesh = null;
      view.scene.traverse((o) => {
        if (!mesh && o.isMesh && o.userData.field && o.name === name) mesh = o;
      });
      return mesh ? Array.from(mesh.geometry.getAttribute('position').array) : null;
    },
    setTime,
    play: () => setPlaying(true),
    pause: () => setPlaying(false),
    select,
    showContacts,
    render,
    /// Where body i's centre is on the page (CSS pixels), for tests that click it.
    bodyScreenPosition(i) {
      const p = view.positions[i].clone().project(view.camera);
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
