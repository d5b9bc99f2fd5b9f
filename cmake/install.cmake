# Installation: libdrape (static or shared, BUILD_SHARED_LIBS) and the scene library, the public
# headers (include/drape/), the tools, a CMake package (find_package(drape) gives drape::drape and
# drape::scene) and pkg-config files (drape.pc, drape-scene.pc). The kernels are embedded in the
# library, so nothing else is installed. tests/install/ checks all of it from an outside project.
include(CMakePackageConfigHelpers)
set(DRAPE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/drape)

set_target_properties(drape_scene PROPERTIES EXPORT_NAME scene)
install(TARGETS drape drape_scene EXPORT drapeTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/drape DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/CHANGELOG.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
foreach(tool drape_cli drape_view drape-bench)
  if(TARGET ${tool})
    install(TARGETS ${tool} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endforeach()

install(EXPORT drapeTargets NAMESPACE drape:: DESTINATION ${DRAPE_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/drapeConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/drapeConfig.cmake
                              INSTALL_DESTINATION ${DRAPE_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/drapeConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/drapeConfig.cmake ${PROJECT_BINARY_DIR}/drapeConfigVersion.cmake
        DESTINATION ${DRAPE_CMAKE_DIR})

# A sanitizer build's library needs the sanitizer runtimes in the program that links it.
set(DRAPE_PC_LIBS "-ldrape")
if(DRAPE_SANITIZE)
  target_link_options(drape INTERFACE $<INSTALL_INTERFACE:-fsanitize=address,undefined>)
  set(DRAPE_PC_LIBS "-ldrape -fsanitize=address,undefined")
endif()

# pkg-config: a static libdrape needs its dependencies on the link line (pkg-config --static).
set(DRAPE_PC_LIBS_PRIVATE "-lm")
if(DRAPE_OPENCL)
  set(DRAPE_PC_LIBS_PRIVATE "-lclblast -lOpenCL -lm")
endif()
# The .pc files find the prefix from where they lie (${pcfiledir}), so that an installed tree moves.
file(RELATIVE_PATH DRAPE_PC_TO_PREFIX ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" DRAPE_PC_TO_PREFIX "${DRAPE_PC_TO_PREFIX}")
foreach(pc drape drape-scene)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/${pc}.pc.in ${PROJECT_BINARY_DIR}/${pc}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/${pc}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endforeach()
