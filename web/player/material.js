// The bodies' material: the lighting of the player's white ambient, sun and
// fill lights (three's Lambert model), evaluated once per vertex instead of
// once per pixel. Faces are flat (boxes, hulls: one normal per face), so a
// face gets the colour per-pixel shading would give it; round shapes are
// Gouraud-shaded. In software GL (swiftshader, the browsers' fallback) the
// pixels dominate a frame, and this leaves each pixel one interpolation.
import { Color, DoubleSide, FrontSide, ShaderMaterial, Vector3 } from 'three';

/// Where the lights come from (unit vectors toward them) and their strengths,
/// as three's AmbientLight and DirectionalLight intensities.
export const LIGHTS = {
  ambient: 0.9,
  sun: { direction: new Vector3(0.5, 1, 0.35).normalize(), intensity: 2.2 },
  fill: { direction: new Vector3(-0.6, 0.3, -0.8).normalize(), intensity: 0.6 },
};

const vertexShader = /* glsl */ `
uniform vec3 sunDirection;
uniform vec3 fillDirection;
uniform vec3 light;  // ambient, sun, fill intensities
uniform vec3 fieldColor;  // FIELD_COLOR: one colour for the whole mesh (linear)
varying vec3 vColor;
void main() {
  mat4 model = modelMatrix;
#ifdef USE_INSTANCING
  model = modelMatrix * instanceMatrix;
#endif
  vec3 n = normalize(mat3(model) * normal);  // rigid poses: no inverse transpose
  // Lambert: albedo / pi times the light reaching the surface.
#ifdef TWO_SIDED
  // Cloth is seen from both sides: each side is lit as if it faced the light.
  float irradiance = light.x + light.y * abs(dot(n, sunDirection)) +
                     light.z * abs(dot(n, fillDirection));
#else
  float irradiance = light.x + light.y * max(dot(n, sunDirection), 0.0) +
                     light.z * max(dot(n, fillDirection), 0.0);
#endif
  vec3 albedo = vec3(1.0);
#ifdef USE_INSTANCING_COLOR
  albedo = instanceColor;
#endif
#ifdef FIELD_COLOR
  albedo = fieldColor;
#endif
  vColor = albedo * irradiance * 0.3183098861837907;  // 1 / pi
  gl_Position = projectionMatrix * viewMatrix * model * vec4(position, 1.0);
}
`;

const fragmentShader = /* glsl */ `
uniform float opacity;
varying vec3 vColor;
void main() {
  gl_FragColor = vec4(vColor, opacity);
  #include <colorspace_fragment>
}
`;

function uniforms(opacity, color) {
  return {
    sunDirection: { value: LIGHTS.sun.direction },
    fillDirection: { value: LIGHTS.fill.direction },
    light: { value: new Vector3(LIGHTS.ambient, LIGHTS.sun.intensity, LIGHTS.fill.intensity) },
    opacity: { value: opacity },
    fieldColor: { value: color ?? new Color(1, 1, 1) },
  };
}

/// A material for an InstancedMesh whose instances carry their colours.
export function bodyMaterial({ opacity = 1, side } = {}) {
  return new ShaderMaterial({
    uniforms: uniforms(opacity),
    vertexShader,
    fragmentShader,
    transparent: opacity < 1,
    side,
  });
}

/// A material for a surface or a cloth: one colour (a linear Color), drawn
/// from both sides when `twoSided` (lit on both); translucent below opacity 1
/// (then it leaves the depth buffer alone, so what lies under water shows).
export function fieldMaterial({ color, opacity = 1, twoSided = false }) {
  return new ShaderMaterial({
    uniforms: uniforms(opacity, color),
    vertexShader,
    fragmentShader,
    defines: twoSided ? { FIELD_COLOR: '', TWO_SIDED: '' } : { FIELD_COLOR: '' },
    transparent: opacity < 1,
    depthWrite: opacity >= 1,
    side: twoSided ? DoubleSide : FrontSide,
  });
}
