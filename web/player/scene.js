// The three.js scene: a mesh per body built from its shape parameters, the
// joints as line segments, lights, a ground grid, and a camera that frames
// everything the recording visits.
import {
  AmbientLight,
  Box3,
  BoxGeometry,
  BufferAttribute,
  BufferGeometry,
  CapsuleGeometry,
  Color,
  DirectionalLight,
  DoubleSide,
  GridHelper,
  Group,
  LineBasicMaterial,
  LineSegments,
  Mesh,
  MeshStandardMaterial,
  PerspectiveCamera,
  PlaneGeometry,
  Quaternion,
  Scene,
  SphereGeometry,
  SRGBColorSpace,
  Vector3,
} from 'three';
import { lerp3 } from './recording.js';

const UP = new Vector3(0, 1, 0);

/// What the camera frames: every non-plane body over all frames, or only the
/// first frame when that would be more than 3 times as large (bodies that fall
/// away or fly off would otherwise shrink the scene to a dot).
function sceneBounds(rec) {
  const all = boundsOver(rec, rec.frames.time.length);
  const first = boundsOver(rec, 1);
  const span = (box) => box.getSize(new Vector3()).length();
  return span(all) > 3 * span(first) + 1 ? first : all;
}

/// Bounds of every non-plane body over the first `frames` frames (planes are unbounded).
function boundsOver(rec, frames) {
  const box = new Box3();
  const n = rec.bodies.length;
  const p = rec.frames.position;
  const point = new Vector3();
  for (let i = 0; i < n; ++i) {
    const shape = rec.bodies[i].shape;
    if (shape.type === 'plane') continue;
    const reach = shapeRadius(shape);
    for (let f = 0; f < frames; ++f) {
      const s = (f * n + i) * 3;
      point.set(p[s], p[s + 1], p[s + 2]);
      box.expandByPoint(point.clone().addScalar(reach));
      box.expandByPoint(point.addScalar(-reach));
    }
  }
  if (box.isEmpty()) box.set(new Vector3(-1, 0, -1), new Vector3(1, 1, 1));
  return box;
}

/// Radius of a sphere around the body origin that holds the shape.
function shapeRadius(shape) {
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

export function buildScene(rec) {
  const scene = new Scene();
  scene.background = new Color(0x1d2127);
  const bounds = sceneBounds(rec);
  const size = bounds.getSize(new Vector3());
  const centre = bounds.getCenter(new Vector3());
  const span = Math.max(size.x, size.y, size.z, 1);
  const extent = Math.max(40, 8 * span);

  const meshes = rec.bodies.map((body, i) => {
    const color = new Color().setRGB(...body.color, SRGBColorSpace);
    const plane = body.shape.type === 'plane';
    const material = new MeshStandardMaterial({
      color,
      flatShading: true,
      roughness: 0.65,
      metalness: 0,
      side: plane ? DoubleSide : undefined,
      transparent: plane,
      opacity: plane ? 0.55 : 1,
    });
    const mesh = new Mesh(shapeGeometry(body.shape, extent), material);
    mesh.userData.index = i;
    mesh.name = body.name;
    scene.add(mesh);
    return mesh;
  });

  // Lights: white only, so a body's hue on screen is its own colour.
  scene.add(new AmbientLight(0xffffff, 0.9));
  const sun = new DirectionalLight(0xffffff, 2.2);
  sun.position.set(0.5, 1, 0.35).multiplyScalar(span * 4);
  sun.target.position.copy(centre);
  scene.add(sun, sun.target);
  const fill = new DirectionalLight(0xffffff, 0.6);
  fill.position.set(-0.6, 0.3, -0.8).multiplyScalar(span * 4);
  scene.add(fill);

  scene.add(groundGrid(rec, bounds, extent, span));
  const joints = jointLines(rec);
  scene.add(joints);

  const camera = new PerspectiveCamera(45, 16 / 9, span / 1000, extent * 10);
  const distance = (0.5 * span * 1.1) / Math.tan((camera.fov * Math.PI) / 360);
  camera.position.copy(centre).add(new Vector3(0.35, 0.3, 1).normalize().multiplyScalar(distance));
  camera.lookAt(centre);
  return { scene, camera, meshes, joints, centre, span };
}

/// A grid on the first plane (a floor) or, without one, at the lowest point.
function groundGrid(rec, bounds, extent, span) {
  const step = Math.pow(10, Math.floor(Math.log10(span)));
  const divisions = Math.min(200, Math.round(extent / step));
  const grid = new GridHelper(extent, divisions, 0x566070, 0x343a44);
  grid.material.transparent = true;
  grid.material.opacity = 0.6;
  const holder = new Group();
  holder.add(grid);
  const i = rec.bodies.findIndex((b) => b.shape.type === 'plane');
  if (i >= 0) {
    const shape = rec.bodies[i].shape;
    const n = new Vector3(...shape.normal).normalize();
    holder.quaternion.setFromUnitVectors(UP, n);
    // Just above the plane so the two do not fight for the same depth.
    holder.position.copy(n).multiplyScalar(shape.offset + 1e-3 * span);
    const p = rec.frames.position;
    holder.position.add(new Vector3(p[i * 3], p[i * 3 + 1], p[i * 3 + 2]));
  } else {
    holder.position.y = Math.min(0, bounds.min.y);
  }
  return holder;
}

/// One line segment per joint, from its end on body A to its end on body B.
function jointLines(rec) {
  const geometry = new BufferGeometry();
  const count = Math.max(1, rec.joints.length);
  geometry.setAttribute('position', new BufferAttribute(new Float32Array(count * 6), 3));
  geometry.setDrawRange(0, rec.joints.length * 2);
  const lines = new LineSegments(geometry, new LineBasicMaterial({ color: 0xf4f4f4, depthTest: false }));
  lines.renderOrder = 1;  // drawn over the bodies: the ends sit inside them
  lines.frustumCulled = false;
  return lines;
}

const q0 = new Quaternion();
const q1 = new Quaternion();
const v = [0, 0, 0];

/// Poses every mesh and joint line at (f0, f1, alpha): positions lerped,
/// orientations slerped.
export function applyFrame(rec, view, { f0, f1, alpha }) {
  const n = rec.bodies.length;
  const { position, orientation, joint_a: ja, joint_b: jb } = rec.frames;
  for (let i = 0; i < n; ++i) {
    const mesh = view.meshes[i];
    lerp3(position, f0 * n + i, f1 * n + i, alpha, v);
    mesh.position.set(v[0], v[1], v[2]);
    const a = (f0 * n + i) * 4;
    const b = (f1 * n + i) * 4;
    // pabd stores [w, x, y, z]; three wants (x, y, z, w).
    q0.set(orientation[a + 1], orientation[a + 2], orientation[a + 3], orientation[a]);
    q1.set(orientation[b + 1], orientation[b + 2], orientation[b + 3], orientation[b]);
    mesh.quaternion.slerpQuaternions(q0.normalize(), q1.normalize(), alpha);
  }
  const m = rec.joints.length;
  const attr = view.joints.geometry.getAttribute('position');
  for (let j = 0; j < m; ++j) {
    lerp3(ja, f0 * m + j, f1 * m + j, alpha, v);
    attr.setXYZ(2 * j, v[0], v[1], v[2]);
    lerp3(jb, f0 * m + j, f1 * m + j, alpha, v);
    attr.setXYZ(2 * j + 1, v[0], v[1], v[2]);
  }
  attr.needsUpdate = true;
}
