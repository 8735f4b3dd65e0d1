// A full-target quad from gl_VertexID (no vertex buffer). The "#version" line is prepended
// at run time: "300 es" in WebGL2, "330 core" natively.
out vec2 v_uv;

void main() {
  vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
  v_uv = corner;
  gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
