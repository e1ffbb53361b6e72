# The HTML player's script and style sheet (web/player/), bundled with three.js
# by esbuild at build time and compiled into the pabd_output library, so that
# write_html() (src/output/html_writer.cpp) writes pages that need no server
# and no network. Included from the top-level CMakeLists.txt after
# add_library(pabd_output).
#
# Without Node.js or web/node_modules the player is left out with a one-line
# notice: PABD_HAVE_PLAYER is OFF, html_writer.cpp is built without it and
# `pabd run --html` says so; everything else builds.

set(PABD_WEB_DIR ${PROJECT_SOURCE_DIR}/web)
set(PABD_ESBUILD ${PABD_WEB_DIR}/node_modules/.bin/esbuild)
find_program(PABD_NODE node)
if(NOT PABD_NODE)
  message(STATUS "pabd: no Node.js (node): the HTML player (pabd run --html) is left out; scripts/install-deps.sh installs it")
  set(PABD_HAVE_PLAYER OFF)
elseif(NOT EXISTS ${PABD_ESBUILD} OR NOT EXISTS ${PABD_WEB_DIR}/node_modules/three/package.json)
  message(STATUS "pabd: web/node_modules lacks esbuild or three: the HTML player (pabd run --html) is left out; scripts/install-deps.sh runs npm ci")
  set(PABD_HAVE_PLAYER OFF)
else()
  set(PABD_HAVE_PLAYER ON)
endif()
if(NOT PABD_HAVE_PLAYER)
  return()
endif()
target_compile_definitions(pabd_output PRIVATE PABD_HAVE_PLAYER=1)

file(GLOB PABD_PLAYER_SOURCES CONFIGURE_DEPENDS
  ${PABD_WEB_DIR}/player/*.js ${PABD_WEB_DIR}/player/*.css)
set(PABD_GENERATED_DIR ${CMAKE_BINARY_DIR}/generated)

# web/node_modules/.bin/esbuild is esbuild's launcher (a native binary or a
# node script with a #! line, depending on how npm installed it): run it as is.
# One minified IIFE with three.js tree-shaken into it, and the style sheet.
# The two entry points are named player.js and player.css, so --outdir gives
# generated/player.js and generated/player.css.
add_custom_command(
  OUTPUT ${PABD_GENERATED_DIR}/player.js ${PABD_GENERATED_DIR}/player.css
  COMMAND ${PABD_ESBUILD}
          ${PABD_WEB_DIR}/player/player.js ${PABD_WEB_DIR}/player/player.css
          --bundle --minify --format=iife --target=es2020 --legal-comments=none
          --log-level=warning --outdir=${PABD_GENERATED_DIR}
  DEPENDS ${PABD_PLAYER_SOURCES} ${PABD_WEB_DIR}/package-lock.json
  WORKING_DIRECTORY ${PABD_WEB_DIR}
  COMMENT "Bundling the HTML player (esbuild, three.js)"
  VERBATIM)

# The bundle as byte arrays in a C++ source (no string literal, so no
# -Woverlength-strings under -Wpedantic, whatever the bundle's size).
add_custom_command(
  OUTPUT ${PABD_GENERATED_DIR}/player_assets.cpp
  COMMAND ${CMAKE_COMMAND}
          -DJS=${PABD_GENERATED_DIR}/player.js
          -DCSS=${PABD_GENERATED_DIR}/player.css
          -DOUT=${PABD_GENERATED_DIR}/player_assets.cpp
          -P ${PROJECT_SOURCE_DIR}/cmake/EmbedPlayerAssets.cmake
  DEPENDS ${PABD_GENERATED_DIR}/player.js ${PABD_GENERATED_DIR}/player.css
          ${PROJECT_SOURCE_DIR}/cmake/EmbedPlayerAssets.cmake
  COMMENT "Embedding the HTML player in C++"
  VERBATIM)

target_sources(pabd_output PRIVATE ${PABD_GENERATED_DIR}/player_assets.cpp)
