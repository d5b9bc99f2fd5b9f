# drape_warnings: the warnings every target of the tree builds with (-Werror too when DRAPE_WERROR
# is ON). An interface target rather than global flags: the libraries drape, drape_coloring and
# drape_opencl pass it on to whatever links them inside the build tree (PUBLIC, as a
# BUILD_INTERFACE, so the installed package does not carry it); code that is not ours, such as the
# generated GL loader, links none of them and keeps its own flags.
add_library(drape_warnings INTERFACE)
target_compile_options(drape_warnings INTERFACE -Wall -Wextra -pedantic
                                                $<$<COMPILE_LANGUAGE:C>:-Wmissing-prototypes>)
if(DRAPE_WERROR)
  target_compile_options(drape_warnings INTERFACE -Werror)
endif()
