// Writes the current window framebuffer to a PNG (desktop only: the browser has its own
// screenshots). Returns false with a message on stderr if the file cannot be written.
#pragma once

bool write_screenshot(const char* path, int width, int height);
