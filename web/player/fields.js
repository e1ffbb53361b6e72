// Sand and water surfaces and cloth: meshes whose vertices move.
//
// A surface is a grid of heights recorded at some frames (recording.js
// expands them to whole grids); the time shown falls between two of them and
// the heights are blended linearly, normals from central differences as pabd's
// src/output/surface_mesh.h takes them. A cloth is a triangle mesh whose
// vertices are its particle bodies, drawn where the poses put them this frame
// (scene.js's applyFrame; the particles' own spheres are hidden).
import { BufferAttribute, BufferGeometry, Color, DynamicDrawUsage, Mesh, SRGBColorSpace } from 'three';
import { fieldMaterial } from './material.js';
import { locateIn } from './recording.js';

/// A mesh of `vertices` moving vertices and these triangles, with the field's material.
function movingMesh(name, kind, vertices, triangles, material) {
  const geometry = new BufferGeometry();
  for (const attribute of ['position', 'normal']) {
    const a = new BufferAttribute(new Float32Array(vertices * 3), 3);
    a.setUsage(DynamicDrawUsage);
    geometry.setAttribute(attribute, a);
  }
  geometry.setIndex(new BufferAttribute(triangles, 1));
  const mesh = new Mesh(geometry, material);
  mesh.name = name;
  mesh.userData.field = kind;
  mesh.frustumCulled = false;  // the vertices move: bounds would be stale
  return mesh;
}

function linearColor(rgb) {
  return new Color().setRGB(rgb[0], rgb[1], rgb[2], SRGBColorSpace);
}

/// Two triangles per cell, counter-clockwise seen from above (as surface_mesh.cpp).
function gridTriangles(columns, rows) {
  const out = new Uint32Array(Math.max(0, (columns - 1) * (rows - 1) * 6));
  let k = 0;
  for (let r = 0; r + 1 < rows; ++r)
    for (let c = 0; c + 1 < columns; ++c) {
      const v = r * columns + c;
      out.set([v, v + columns, v + 1, v + 1, v + columns, v + columns + 1], k);
      k += 6;
    }
  return out;
}

export class SurfaceView {
  constructor(surface) {
    this.surface = surface;
    const { columns, rows, spacing, x0, z0 } = surface;
    const water = surface.kind === 'water';
    const material = fieldMaterial({ color: linearColor(surface.color), opacity: surface.opacity ?? 1, twoSided: water });
    this.mesh = movingMesh(surface.name, surface.kind, columns * rows, gridTriangles(columns, rows), material);
    const p = this.mesh.geometry.getAttribute('position').array;
    for (let r = 0; r < rows; ++r)
      for (let c = 0; c < columns; ++c) {
        p[(r * columns + c) * 3] = x0 + c * spacing;
        p[(r * columns + c) * 3 + 2] = z0 + r * spacing;
      }
    this.heights = new Float32Array(columns * rows);
    this.shown = '';
  }

  /// Shows the surface at time t [s] (no work when that blend is shown already).
  show(t) {
    const s = this.surface;
    const { f0, f1, alpha } = locateIn(s.times, t);
    const key = `${f0} ${f1} ${alpha}`;
    if (key === this.shown) return;
    this.shown = key;
    const n = s.columns * s.rows;
    const [lo, hi] = s.range;
    const scale = (hi - lo) / 65535;
    const h = this.heights;
    for (let v = 0; v < n; ++v) {
      const u = s.heights[f0 * n + v] * (1 - alpha) + s.heights[f1 * n + v] * alpha;
      h[v] = lo + scale * u;
    }
    const position = this.mesh.geometry.getAttribute('position');
    const normal = this.mesh.geometry.getAttribute('normal');
    const p = position.array;
    const m = normal.array;
    const { columns, rows, spacing } = s;
    for (let r = 0; r < rows; ++r) {
      const r0 = r > 0 ? r - 1 : r;
      const r1 = r + 1 < rows ? r + 1 : r;
      for (let c = 0; c < columns; ++c) {
        const v = r * columns + c;
        const c0 = c > 0 ? c - 1 : c;
        const c1 = c + 1 < columns ? c + 1 : c;
        const dx = c1 > c0 ? (h[r * columns + c1] - h[r * columns + c0]) / ((c1 - c0) * spacing) : 0;
        const dz = r1 > r0 ? (h[r1 * columns + c] - h[r0 * columns + c]) / ((r1 - r0) * spacing) : 0;
        const inv = 1 / Math.sqrt(dx * dx + 1 + dz * dz);
        p[v * 3 + 1] = h[v];
        m[v * 3] = -dx * inv;
        m[v * 3 + 1] = inv;
        m[v * 3 + 2] = -dz * inv;
      }
    }
    position.needsUpdate = true;
    normal.needsUpdate = true;
  }
}

export class ClothView {
  constructor(cloth) {
    this.cloth = cloth;
    const material = fieldMaterial({ color: linearColor(cloth.color), twoSided: true });
    this.mesh = movingMesh(cloth.name, 'cloth', cloth.particles.length, new Uint32Array(cloth.triangles), material);
  }

  /// Puts each vertex at its particle's position as drawn now (view.positions).
  show(view) {
    const geometry = this.mesh.geometry;
    const position = geometry.getAttribute('position');
    this.cloth.particles.forEach((body, v) => {
      const q = view.positions[body];
      position.setXYZ(v, q.x, q.y, q.z);
    });
    position.needsUpdate = true;
    geometry.computeVertexNormals();
  }
}
