// Replaced by the real shaders.
