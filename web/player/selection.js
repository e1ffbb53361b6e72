// The selected body, made visible: its instance is lightened towards white,
// and a bright box (its shape's bounds, a little larger) follows it, drawn
// over everything so a body inside a pile still shows where it is.
import { Box3Helper, Color, Group, Vector3 } from 'three';
import { bodyColor } from './scene.js';

export const OUTLINE = 0xffd21f;
const WHITE = new Color(0xffffff);

export class Selection {
  constructor(rec, view) {
    this.rec = rec;
    this.view = view;
    this.index = -1;
    this.object = new Group();
    this.object.visible = false;
  }

  /// Selects body i (-1: none); the next applyFrame draws the new colours.
  select(i) {
    if (this.index >= 0) this.view.colours[this.index] = bodyColor(this.rec, this.index);
    this.index = i;
    this.object.clear();
    this.object.visible = i >= 0;
    if (i < 0) return;
    this.view.colours[i] = bodyColor(this.rec, i).lerp(WHITE, 0.45);
    const mesh = this.view.meshOf[i];
    if (!mesh) return;  // a body a surface or cloth draws: no instance to outline
    const box = mesh.geometry.boundingBox.clone();
    // Planes are drawn as a large square: outline a small patch of them only.
    if (this.rec.shapes[this.rec.bodies[i].shape].type === 'plane') box.setFromCenterAndSize(new Vector3(), new Vector3(1, 1, 1).multiplyScalar(0.1 * this.view.span));
    box.expandByScalar(0.04 * box.getSize(new Vector3()).length() + 1e-4 * this.view.span);
    const helper = new Box3Helper(box, OUTLINE);
    helper.material.depthTest = false;
    helper.renderOrder = 3;
    this.object.add(helper);
  }

  /// Moves the outline to the selected body's pose as drawn.
  follow() {
    if (this.index < 0) return;
    this.object.position.copy(this.view.positions[this.index]);
    this.object.quaternion.copy(this.view.orientations[this.index]);
  }
}
