# Generates the OpenGL 3.3 core loader with Debian's glad into the build directory.
# --reproducible keeps glad on its bundled spec (it would otherwise try to download it).
set(GLAD_OUT ${CMAKE_BINARY_DIR}/glad)
add_custom_command(
  OUTPUT ${GLAD_OUT}/src/gl.c ${GLAD_OUT}/include/glad/gl.h ${GLAD_OUT}/include/KHR/khrplatform.h
  COMMAND ${GLAD_EXECUTABLE} --quiet --reproducible --api gl:core=3.3 --out-path ${GLAD_OUT} c
  COMMENT "Generating the GL 3.3 core loader with glad"
  VERBATIM)
add_library(glad STATIC ${GLAD_OUT}/src/gl.c)
target_include_directories(glad SYSTEM PUBLIC ${GLAD_OUT}/include)
set_target_properties(glad PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_compile_options(glad PRIVATE -w)
