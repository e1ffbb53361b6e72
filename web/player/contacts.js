// Contact points and normals of the frame shown (recorded with
// `pabd run --html-contacts`): a dot at each point and a line along its normal,
// drawn over the bodies, orange where the contact pushes and grey-blue where it
// is only speculative (no force in the step). The frame nearest to the time
// shown is drawn as recorded: contacts come and go, so they are not blended.
import { BufferAttribute, BufferGeometry, Color, Group, LineBasicMaterial, LineSegments, Points, PointsMaterial } from 'three';
import { contactRange } from './recording.js';

export const PUSHING = 0xff5a1f;
export const SPECULATIVE = 0x7f9cc0;

export class ContactView {
  /// `length`: the normals' length [m], a fraction of the scene's size.
  constructor(rec, length) {
    this.rec = rec;
    this.length = length;
    this.frame = -1;
    this.count = 0;
    let most = 0;
    for (let f = 0; f < rec.frames.count; ++f) {
      const [begin, end] = contactRange(rec, f);
      most = Math.max(most, end - begin);
    }
    const capacity = Math.max(1, most);
    this.dots = new BufferGeometry();
    this.dots.setAttribute('position', new BufferAttribute(new Float32Array(capacity * 3), 3));
    this.dots.setAttribute('color', new BufferAttribute(new Float32Array(capacity * 3), 3));
    this.lines = new BufferGeometry();
    this.lines.setAttribute('position', new BufferAttribute(new Float32Array(capacity * 6), 3));
    this.lines.setAttribute('color', new BufferAttribute(new Float32Array(capacity * 6), 3));
    const points = new Points(this.dots, new PointsMaterial({ size: 6, sizeAttenuation: false, vertexColors: true, depthTest: false }));
    const normals = new LineSegments(this.lines, new LineBasicMaterial({ vertexColors: true, depthTest: false }));
    for (const o of [points, normals]) {
      o.frustumCulled = false;
      o.renderOrder = 2;  // over the bodies and the joints: contacts sit on surfaces
    }
    this.object = new Group();
    this.object.add(normals, points);
    this.object.visible = rec.hasContacts;
  }

  /// Shows the contacts of frame f (no work when it is already shown).
  show(f) {
    if (f === this.frame || !this.rec.hasContacts) return;
    this.frame = f;
    const [begin, end] = contactRange(this.rec, f);
    const { contact_point: p, contact_normal: n, contact_force: force } = this.rec.data;
    const dp = this.dots.getAttribute('position');
    const dc = this.dots.getAttribute('color');
    const lp = this.lines.getAttribute('position');
    const lc = this.lines.getAttribute('color');
    const pushing = new Color(PUSHING);
    const speculative = new Color(SPECULATIVE);
    for (let c = begin; c < end; ++c) {
      const k = c - begin;
      const colour = force[c] > 0 ? pushing : speculative;
      const [x, y, z] = [p[c * 3], p[c * 3 + 1], p[c * 3 + 2]];
      const s = this.length / 127;  // the normals are stored times 127
      dp.setXYZ(k, x, y, z);
      dc.setXYZ(k, colour.r, colour.g, colour.b);
      lp.setXYZ(2 * k, x, y, z);
      lp.setXYZ(2 * k + 1, x + n[c * 3] * s, y + n[c * 3 + 1] * s, z + n[c * 3 + 2] * s);
      lc.setXYZ(2 * k, colour.r, colour.g, colour.b);
      lc.setXYZ(2 * k + 1, colour.r, colour.g, colour.b);
    }
    this.count = end - begin;
    this.dots.setDrawRange(0, this.count);
    this.lines.setDrawRange(0, 2 * this.count);
    for (const a of [dp, dc, lp, lc]) a.needsUpdate = true;
  }
}
