// One matrix drawn through a colormap. Values come from an R32F texture read cell by cell
// (texelFetch: no filtering, so every cell keeps its own colour at any zoom).
precision highp float;

in vec2 v_uv;
out vec4 frag;

uniform sampler2D u_values;   // cols × rows, one float per cell; −∞ marks a masked cell
uniform vec4 u_view;          // the visible rectangle in cell units: x0, y0, x1, y1
uniform int u_map;            // 0: sequential (viridis), 1: diverging (cool–warm)
uniform vec2 u_range;         // the values at the two ends of the map
uniform float u_dim;          // 0 = full colour, 1 = background (stages not reached yet)
uniform vec3 u_background;
uniform vec3 u_hatch;         // the stripes of a masked cell
uniform vec2 u_px_per_cell;   // grid lines only when cells are big enough to separate

// Viridis as a polynomial fit (perceptually uniform, readable in grey and by most colour-
// blind readers).
vec3 viridis(float t) {
  const vec3 c0 = vec3(0.2777273272234177, 0.005407344544966578, 0.3340998053353061);
  const vec3 c1 = vec3(0.1050930431085774, 1.404613529898575, 1.384590162594685);
  const vec3 c2 = vec3(-0.3308618287255563, 0.214847559468213, 0.09509516302823659);
  const vec3 c3 = vec3(-4.634230498983486, -5.799100973351585, -19.33244095627987);
  const vec3 c4 = vec3(6.228269936347081, 14.17993336680509, 56.69055260068105);
  const vec3 c5 = vec3(4.776384997670288, -13.74514537774601, -65.35303263337234);
  const vec3 c6 = vec3(-5.435455855934631, 4.645852612178535, 26.3124352495832);
  return c0 + t * (c1 + t * (c2 + t * (c3 + t * (c4 + t * (c5 + t * c6)))));
}

// Moreland's cool–warm diverging map: blue below zero, grey at zero, red above.
vec3 coolwarm(float t) {
  const vec3 a = vec3(0.230, 0.299, 0.754);
  const vec3 b = vec3(0.552, 0.690, 0.996);
  const vec3 c = vec3(0.866, 0.866, 0.866);
  const vec3 d = vec3(0.956, 0.604, 0.486);
  const vec3 e = vec3(0.706, 0.016, 0.150);
  float s = t * 4.0;
  if (s < 1.0) return mix(a, b, s);
  if (s < 2.0) return mix(b, c, s - 1.0);
  if (s < 3.0) return mix(c, d, s - 2.0);
  return mix(d, e, s - 3.0);
}

void main() {
  vec2 cell = mix(u_view.xy, u_view.zw, v_uv);
  ivec2 size = textureSize(u_values, 0);
  if (cell.x < 0.0 || cell.y < 0.0 || cell.x >= float(size.x) || cell.y >= float(size.y)) {
    frag = vec4(u_background, 1.0);
    return;
  }
  float x = texelFetch(u_values, ivec2(floor(cell)), 0).r;
  vec3 colour;
  if (isinf(x) || isnan(x)) {
    // Masked: diagonal stripes, a pattern no value maps to.
    float stripe = mod(gl_FragCoord.x + gl_FragCoord.y, 8.0);
    colour = stripe < 2.5 ? u_hatch : u_background;
  } else {
    float t = clamp((x - u_range.x) / max(u_range.y - u_range.x, 1e-20), 0.0, 1.0);
    colour = u_map == 0 ? viridis(t) : coolwarm(t);
  }
  if (min(u_px_per_cell.x, u_px_per_cell.y) >= 6.0) {
    vec2 edge = min(fract(cell), 1.0 - fract(cell)) * u_px_per_cell;
    if (min(edge.x, edge.y) < 0.75) colour = u_background;
  }
  frag = vec4(mix(colour, u_background, u_dim), 1.0);
}
