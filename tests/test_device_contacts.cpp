// Contact detection on a device (src/device/device_contacts.h), checked on
// the host through the serial stand-in (make_emulated_backend): the device
// detector's stages on its own buffers, with its block loops, one-thread
// serial parts and its adjacency by a radix sort instead of the host's
// counting sort. Fed the same poses step after step as a host
// ContactDetector, it must give the same contacts bit for bit: the kernels
// and their order per index are the same, the scans and the merge are
// deterministic, and the previous step's contacts it matches against are
// its own (neither detector is fed back by a solver here; the device step's
// tests cover that once the device's iterations read these contacts).
#include <gtest/gtest.h>

#include <string>

#include "device_contacts_check.h"

namespace pabd {
namespace {

const std::string kScenes = std::string(PABD_SOURCE_DIR) + "/scenes/";

int expect_same_contacts(const std::string& scene, int steps) {
  const auto device = make_emulated_backend();
  return expect_device_contacts_match(*device, load_scene(kScenes + scene), scene, steps);
}

TEST(DeviceContacts, Pile20GivesTheHostsContacts) {  // 8000 boxes: two blocks, 200k contacts
  EXPECT_GT(expect_same_contacts("pile_20.json", 3), 100000);
}
TEST(DeviceContacts, BallIntoStackGivesTheHostsContactsWhileItIsHit) {  // matching, round ends
  EXPECT_GT(expect_same_contacts("ball_into_stack.json", 40), 3000);
}
TEST(DeviceContacts, MassRatioStackGivesTheHostsLoadPenalties) {  // the supported masses
  EXPECT_GT(expect_same_contacts("mass_ratio_stack.json", 30), 20);
}
TEST(DeviceContacts, RobotDogGivesTheHostsContacts) {  // a free articulation's hanging mass
  EXPECT_GT(expect_same_contacts("robot_dog.json", 60), 2);
}
TEST(DeviceContacts, WindmillPilesGiveTheHostsContacts) {  // joined pairs, an anchored machine
  EXPECT_GT(expect_same_contacts("windmill_piles.json", 30), 500);
}

TEST(DeviceContacts, HullsAreRefusedWithOneLine) {
  const Scene s = load_scene(kScenes + "gear_linkage.json");
  World w = build_world(s, s.settings);
  try {
    make_emulated_backend()->detect_contacts(world_impl(w).contact_input(), nullptr);
    FAIL() << "a hull or compound went to the device";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("device contacts: body"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace pabd
