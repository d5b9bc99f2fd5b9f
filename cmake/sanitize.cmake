# The sanitizer build's default runtime options (cmake/sanitizer_options.c, which says why): its
# __asan_default_options is compiled into every program the tree builds, so that the tests, the
# tools they run (drape, drape-view) and a program started by hand all start with them. Included
# at the end of the top-level CMakeLists.txt, when every target exists, with DRAPE_SANITIZE ON.
include_guard(GLOBAL)

# drape_sanitizer_options(DIR): adds the source to each executable of DIR and its subdirectories.
function(drape_sanitizer_options dir)
  get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    if(type STREQUAL "EXECUTABLE")
      target_sources(${target} PRIVATE "${PROJECT_SOURCE_DIR}/cmake/sanitizer_options.c")
    endif()
  endforeach()
  get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(subdir IN LISTS subdirs)
    drape_sanitizer_options("${subdir}")
  endforeach()
endfunction()

drape_sanitizer_options("${PROJECT_SOURCE_DIR}")
