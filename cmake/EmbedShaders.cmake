# Embeds GLSL files into the binary at build time. The generated source lives in the build
# directory and defines renderer::embedded::kShaders, a table of {file name, text}; see
# renderer/shader_sources.h for the lookup.
set(SKELVIEW_EMBED_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/embed_shaders_run.cmake)

function(skelview_embed_shaders target)
  set(out ${CMAKE_BINARY_DIR}/generated/embedded_shaders.cpp)
  set(files ${ARGN})
  string(REPLACE ";" "|" files_arg "${files}")
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} "-DFILES=${files_arg}" -P ${SKELVIEW_EMBED_SCRIPT}
    DEPENDS ${files} ${SKELVIEW_EMBED_SCRIPT}
    COMMENT "Embedding shaders"
    VERBATIM)
  target_sources(${target} PRIVATE ${out})
endfunction()
