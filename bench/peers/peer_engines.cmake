# Finds the peer engines of bench/peers/ (Debian's libbullet-dev, libode-dev and libmujoco-dev,
# installed by scripts/install-deps.sh). Included by bench/peers/ and tests/
# (the peer test needs to know whether peer_bullet exists), so it only sets
# variables and directory-local imported targets. Bullet is found through
# pkg-config: its .pc file carries the precision define the library was built
# with (none: single precision), which Debian's BulletConfig.cmake does not.
option(PABD_BUILD_PEERS "Build the peer engines' harness in bench/peers/ (each when found)" ON)
set(PABD_PEER_BULLET OFF)
set(PABD_PEER_ODE OFF)
set(PABD_PEER_MUJOCO OFF)
if(PABD_BUILD_PEERS AND PABD_BUILD_BENCHMARKS)
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(PEER_BULLET QUIET IMPORTED_TARGET bullet)
  pkg_check_modules(PEER_ODE QUIET IMPORTED_TARGET ode)
  set(PABD_PEER_BULLET ${PEER_BULLET_FOUND})
  set(PABD_PEER_ODE ${PEER_ODE_FOUND})
  find_package(mujoco CONFIG QUIET)
  set(PABD_PEER_MUJOCO ${mujoco_FOUND})
endif()
