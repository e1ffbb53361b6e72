// The three.js scene: one InstancedMesh per recorded shape (every body of
// that shape is an instance, with its own colour), the joints as line
// segments, the sand and water surfaces and the cloths (fields.js), a ground
// grid, and a camera that frames everything the recording visits. Bodies a
// surface or cloth draws (the sand's height field, cloth particles: "hidden"
// in the recording) are not instanced.
//
// Instancing is what keeps large scenes playable: the 1001 bodies of
// ball_into_stack are 3 draw calls instead of 1001 meshes and materials.
import {
  Box3,
  BoxGeometry,
  BufferAttribute,
  BufferGeometry,
  CapsuleGeometry,
  Color,
  DoubleSide,
  DynamicDrawUsage,
  GridHelper,
  Group,
  InstancedMesh,
  LineBasicMaterial,
  LineSegments,
  Matrix4,
  PerspectiveCamera,
  PlaneGeometry,
  Quaternion,
  Scene,
  SphereGeometry,
  SRGBColorSpace,
  Vector3,
} from 'three';
import { ClothView, SurfaceView } from './fields.js';
import { bodyMaterial } from './material.js';
import { orientationAt, positionAt } from './recording.js';

const UP = new Vector3(0, 1, 0);

/// What the camera frames: every non-plane body (cloth particles included; a
/// surface's own body not, as a sand bed is much larger than what moves on
/// it) over all frames, or only the first frame when that would be more than 3 times as large (bodies that fall
/// away or fly off would otherwise shrink the scene to a dot).
function sceneBounds(rec) {
  const all = boundsOver(rec, rec.frames.count);
  const first = boundsOver(rec, 1);
  const span = (box) => box.getSize(new Vector3()).length();
  return span(all) > 3 * span(first) + 1 ? first : all;
}

/// Bounds of every non-plane body over the first `frames` frames (planes are unbounded).
function boundsOver(rec, frames) {
  const box = new Box3();
  const n = rec.bodies.length;
  const p = [0, 0, 0];
  const point = new Vector3();
  for (let i = 0; i < n; ++i) {
    const shape = rec.shapes[rec.bodies[i].shape];
    if (shape.type === 'plane' || shape.type === 'none') continue;
    const reach = shapeRadius(shape);
    for (let f = 0; f < frames; ++f) {
      positionAt(rec, f, i, p);
      point.set(p[0], p[1], p[2]);
      box.expandByPoint(point.clone().addScalar(reach));
      box.expandByPoint(point.addScalar(-reach));
    }
  }
  if (box.isEmpty()) box.set(new Vector3(-1, 0, -1), new Vector3(1, 1, 1));
  return box;
}

/// Radius of a sphere around the body origin that holds the shape.
export function shapeRadius(shape) {
  switch (shape.type) {
    case 'box':
      return 0.5 * Math.hypot(shape.size[0], shape.size[1], shape.size[2]);
    case 'sphere':
      return shape.radius;
    case 'capsule':
      return shape.radius + shape.half_height;
    case 'triangles': {
      // Hulls, compounds, height fields and meshes: the farthest corner.
      let r2 = 0;
      const p = shape.positions;
      for (let k = 0; k + 2 < p.length; k += 3) {
        r2 = Math.max(r2, p[k] ** 2 + p[k + 1] ** 2 + p[k + 2] ** 2);
      }
      return Math.sqrt(r2);
    }
    default:
      return 0;
  }
}

/// Geometry of a shape in the body frame; planes are a square of side `extent`.
function shapeGeometry(shape, extent) {
  switch (shape.type) {
    case 'box':
      return new BoxGeometry(shape.size[0], shape.size[1], shape.size[2]);
    case 'sphere':
      return new SphereGeometry(shape.radius, 24, 16);
    case 'capsule':
      // three's capsule height is the cylinder part only: 2 * half_height,
      // along local Y like pabd's.
      return new CapsuleGeometry(shape.radius, 2 * shape.half_height, 8, 24);
    case 'plane': {
      // PlaneGeometry faces +Z; turn it to the normal and move it to the
      // plane's closest point to the body origin (n . x = offset).
      const g = new PlaneGeometry(extent, extent);
      const n = new Vector3(...shape.normal).normalize();
      g.applyQuaternion(new Quaternion().setFromUnitVectors(new Vector3(0, 0, 1), n));
      g.translate(n.x * shape.offset, n.y * shape.offset, n.z * shape.offset);
      return g;
    }
    case 'triangles': {
      // Three corners per triangle, counter-clockwise outside (pabd's shape_mesh).
      const g = new BufferGeometry();
      g.setAttribute('position', new BufferAttribute(new Float32Array(shape.positions), 3));
      g.computeVertexNormals();
      return g;
    }
    default:
      throw new Error(`unknown shape type "${shape.type}"`);
  }
}

/// One InstancedMesh per shape; mesh.userData.bodies lists the bodies it
/// draws, and mesh.userData.order which body each instance shows this frame.
function bodyMeshes(rec, extent) {
  const users = rec.shapes.map(() => []);
  rec.bodies.forEach((body, i) => body.hidden || users[body.shape].push(i));
  const meshes = [];
  rec.shapes.forEach((shape, k) => {
    if (users[k].length === 0) return;
    const plane = shape.type === 'plane';
    const material = bodyMaterial({ opacity: plane ? 0.55 : 1, side: plane ? DoubleSide : undefined });
    const geometry = shapeGeometry(shape, extent);
    geometry.computeBoundingBox();
    const mesh = new InstancedMesh(geometry, material, users[k].length);
    mesh.instanceMatrix.setUsage(DynamicDrawUsage);
    // The instances move every frame: bounds for culling would be stale.
    mesh.frustumCulled = false;
    mesh.userData.bodies = users[k];
    mesh.userData.order = users[k].slice();
    mesh.setColorAt(0, new Color());  // creates instanceColor; applyFrame fills it
    mesh.instanceColor.setUsage(DynamicDrawUsage);
    mesh.name = shape.type;
    meshes.push(mesh);
  });
  return meshes;
}

/// Body i's own colour (sRGB in the recording).
export function bodyColor(rec, i) {
  return new Color().setRGB(...rec.bodies[i].color, SRGBColorSpace);
}

export function buildScene(rec) {
  const scene = new Scene();
  scene.background = new Color(0x1d2127);
  const bounds = sceneBounds(rec);
  const size = bounds.getSize(new Vector3());
  const centre = bounds.getCenter(new Vector3());
  const span = Math.max(size.x, size.y, size.z, 1e-6);
  const extent = Math.max(40 * Math.min(span, 1), 8 * span);

  const meshes = bodyMeshes(rec, extent);
  scene.add(...meshes);
  const meshOf = [];
  for (const mesh of meshes) for (const i of mesh.userData.bodies) meshOf[i] = mesh;

  // Lit by the bodies' material itself (material.js): white light only, so
  // a body's hue on screen is its own colour.

  scene.add(groundGrid(rec, bounds, extent, span));
  const joints = jointLines(rec);
  scene.add(joints);
  const surfaces = rec.surfaces.map((s) => new SurfaceView(s));
  const cloths = rec.cloths.map((c) => new ClothView(c));
  for (const field of [...surfaces, ...cloths]) scene.add(field.mesh);

  const camera = new PerspectiveCamera(45, 16 / 9, span / 1000, extent * 10);
  const distance = (0.5 * span * 1.1) / Math.tan((camera.fov * Math.PI) / 360);
  camera.position.copy(centre).add(new Vector3(0.35, 0.3, 1).normalize().multiplyScalar(distance));
  camera.lookAt(centre);
  // Per body: its pose as drawn now, its colour (the selection tints it) and
  // its distance from the camera (for the drawing order).
  const positions = rec.bodies.map(() => new Vector3());
  const orientations = rec.bodies.map(() => new Quaternion());
  const colours = rec.bodies.map((_, i) => bodyColor(rec, i));
  const depth = new Float64Array(rec.bodies.length);
  return { scene, camera, meshes, meshOf, joints, surfaces, cloths, centre, span, positions, orientations, colours, depth };
}

/// A grid on the first plane (a floor) or, without one, at the lowest point;
/// its cells are a power of ten near the scene's size.
function groundGrid(rec, bounds, extent, span) {
  const step = Math.pow(10, Math.floor(Math.log10(span)));
  const divisions = Math.min(200, Math.round(extent / step));
  const grid = new GridHelper(extent, divisions, 0x566070, 0x343a44);
  grid.material.transparent = true;
  grid.material.opacity = 0.6;
  const holder = new Group();
  holder.add(grid);
  const i = rec.bodies.findIndex((b) => rec.shapes[b.shape].type === 'plane');
  if (i >= 0) {
    const shape = rec.shapes[rec.bodies[i].shape];
    const n = new Vector3(...shape.normal).normalize();
    holder.quaternion.setFromUnitVectors(UP, n);
    // Just above the plane so the two do not fight for the same depth.
    holder.position.copy(n).multiplyScalar(shape.offset + 1e-3 * span);
    holder.position.add(new Vector3(...positionAt(rec, 0, i, [0, 0, 0])));
  } else {
    holder.position.y = Math.min(0, bounds.min.y);
  }
  return holder;
}

/// One line segment per joint, from its end on body A to its end on body B;
/// not for a cloth's own edges and bends (both ends hidden particles: the
/// cloth's mesh shows them). geometry.userData.joints lists the joints drawn.
function jointLines(rec) {
  const drawn = rec.joints.filter((j) => !(rec.bodies[j.body_a]?.hidden && rec.bodies[j.body_b]?.hidden));
  const geometry = new BufferGeometry();
  const count = Math.max(1, drawn.length);
  geometry.setAttribute('position', new BufferAttribute(new Float32Array(count * 6), 3));
  geometry.setDrawRange(0, drawn.length * 2);
  geometry.userData.joints = drawn;
  const lines = new LineSegments(geometry, new LineBasicMaterial({ color: 0xf4f4f4, depthTest: false }));
  lines.renderOrder = 1;  // drawn over the bodies: the ends sit inside them
  lines.frustumCulled = false;
  return lines;
}

const q0 = new Quaternion();
const q1 = new Quaternion();
const p0 = [0, 0, 0];
const p1 = [0, 0, 0];
const r = [0, 0, 0, 1];

/// Body i's pose at (f0, f1, alpha) into `outPosition` and `outQuaternion`:
/// positions lerped, orientations slerped.
export function poseAt(rec, { f0, f1, alpha }, i, outPosition, outQuaternion) {
  positionAt(rec, f0, i, p0);
  positionAt(rec, f1, i, p1);
  outPosition.set(p0[0] + (p1[0] - p0[0]) * alpha, p0[1] + (p1[1] - p0[1]) * alpha, p0[2] + (p1[2] - p0[2]) * alpha);
  q0.fromArray(orientationAt(rec, f0, i, r));
  q1.fromArray(orientationAt(rec, f1, i, r));
  outQuaternion.slerpQuaternions(q0, q1, alpha);
}

const scale = new Vector3(1, 1, 1);
const matrix = new Matrix4();
const end = new Vector3();

/// Poses every instance and joint line at (f0, f1, alpha); the poses stay in
/// view.positions and view.orientations for the selection and the panel.
///
/// Each mesh draws its instances nearest first: one draw call cannot be
/// sorted by three as separate meshes were, and drawn back to front a pile's
/// hidden faces are all shaded before the depth test hides them (in software
/// GL that was 2 of 3 frames lost on ball_into_stack).
export function applyFrame(rec, view, where) {
  const n = rec.bodies.length;
  const eye = view.camera.position;
  for (let i = 0; i < n; ++i) {
    poseAt(rec, where, i, view.positions[i], view.orientations[i]);
    view.depth[i] = view.positions[i].distanceToSquared(eye);
  }
  for (const mesh of view.meshes) {
    const order = mesh.userData.order;
    order.sort((i, j) => view.depth[i] - view.depth[j]);
    order.forEach((i, instance) => {
      mesh.setMatrixAt(instance, matrix.compose(view.positions[i], view.orientations[i], scale));
      mesh.setColorAt(instance, view.colours[i]);
    });
    mesh.instanceMatrix.needsUpdate = true;
    mesh.instanceColor.needsUpdate = true;
  }
  // Joint ends: material points of their bodies, carried by the poses drawn.
  const attr = view.joints.geometry.getAttribute('position');
  view.joints.geometry.userData.joints.forEach((j, k) => {
    for (const [slot, body, local] of [[0, j.body_a, j.local_a], [1, j.body_b, j.local_b]]) {
      end.fromArray(local);
      if (body >= 0) end.applyQuaternion(view.orientations[body]).add(view.positions[body]);
      attr.setXYZ(2 * k + slot, end.x, end.y, end.z);
    }
  });
  attr.needsUpdate = true;
  // Surfaces at the time shown; cloths where their particles are drawn.
  const times = rec.frames.time;
  const t = times[where.f0] + (times[where.f1] - times[where.f0]) * where.alpha;
  for (const surface of view.surfaces) surface.show(t);
  for (const cloth of view.cloths) cloth.show(view);
}
