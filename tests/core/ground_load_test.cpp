// Mesh grounds read in the background (GroundLoad, the window's path): a .glb's rest-pose
// triangles come back through the sandboxed import worker as ParseGroundSpec reads them; a broken
// file, a crashing importer and a cancelled read are failures naming the file, never a crash; too
// many or no triangles are refused (GroundFromModel); which specs are mesh files.
#include "app/core/ground_load.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

#include "tests/core/ground_gltf.h"
#include "tests/test_paths.h"

namespace {

app::ImportLimits WorkerLimits() {
  app::ImportLimits limits;
  limits.worker_executable = testpaths::SkelviewBinary();  // this test binary is not skelview
  limits.timeout_seconds = 60.0;
  return limits;
}

// Polls until the load ends (the import worker is a process of its own: no fixed wait).
app::GroundLoad::State Finish(app::GroundLoad* load) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(90);
  while (load->Poll() == app::GroundLoad::State::kRunning &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return load->state();
}

std::string TiltedGround(const char* name) {
  const std::string path = testpaths::TempDir() + "/" + name;
  EXPECT_TRUE(testground::WriteGroundGlb(path, 2.0f, 8, 10.0f, 0.05f));
  return path;
}

TEST(GroundLoad, ReadsTheMeshThroughTheWorkerAsTheCommandLineDoes) {
  const std::string path = TiltedGround("ground-tilted.glb");
  app::GroundLoad load;
  load.Start(path, WorkerLimits());
  ASSERT_EQ(Finish(&load), app::GroundLoad::State::kDone) << load.error();
  EXPECT_EQ(load.spec(), path);
  const app::Ground ground = load.TakeGround();
  EXPECT_EQ(ground.kind, app::Ground::Kind::kMesh);
  EXPECT_EQ(ground.spec, path);
  EXPECT_EQ(ground.triangles.size(), 3u * 2u * 8u * 8u);
  const float slope = std::tan(10.0f * 3.14159265f / 180.0f);
  EXPECT_NEAR(ground.HeightAt(0.3f, 1.0f), 0.05f + slope, 1e-4f);
  EXPECT_NEAR(ground.HeightAt(-1.7f, -1.5f), 0.05f - 1.5f * slope, 1e-4f);
  EXPECT_NEAR(ground.NormalAt(0.0f, 0.5f).z, -std::sin(10.0f * 3.14159265f / 180.0f), 1e-4f);
  EXPECT_EQ(ground.HeightAt(5.0f, 0.0f), 0.0f);  // outside the mesh: the plane y = 0

  // The same triangles as `--ground FILE` reads (in this process here: the test is not skelview).
  setenv("SKELVIEW_IMPORT_INPROCESS", "1", 1);
  app::Ground parsed;
  std::string error;
  ASSERT_TRUE(app::ParseGroundSpec(path, &parsed, &error)) << error;
  unsetenv("SKELVIEW_IMPORT_INPROCESS");
  EXPECT_EQ(parsed.triangles, ground.triangles);
  EXPECT_EQ(parsed.cell_items, ground.cell_items);
}

TEST(GroundLoad, ABrokenFileFailsNamingIt) {
  const std::string path = testpaths::TempDir() + "/ground-broken.glb";
  std::ofstream(path, std::ios::binary) << "glTF\x02\x00\x00\x00 not a ground at all";
  app::GroundLoad load;
  load.Start(path, WorkerLimits());
  ASSERT_EQ(Finish(&load), app::GroundLoad::State::kFailed);
  EXPECT_NE(load.error().find("ground-broken.glb"), std::string::npos) << load.error();
  EXPECT_TRUE(load.TakeGround().triangles.empty());
}

TEST(GroundLoad, AFileWithoutTrianglesFailsNamingIt) {
  // A glTF with a node and no mesh: read fine, but nothing to stand on.
  testgltf::Builder builder;
  builder.Node({{"name", "empty"}}, true);
  const std::string path = testpaths::TempDir() + "/ground-empty.gltf";
  builder.WriteGltf(path);
  app::GroundLoad load;
  load.Start(path, WorkerLimits());
  ASSERT_EQ(Finish(&load), app::GroundLoad::State::kFailed);
  EXPECT_NE(load.error().find("ground-empty.gltf"), std::string::npos) << load.error();
}

TEST(GroundLoad, ACrashingImporterIsAFailureNotACrash) {
  const std::string path = TiltedGround("ground-crash.glb");
  setenv("SKELVIEW_TEST_WORKER_CRASH", "1", 1);  // the worker dies of SIGSEGV
  app::GroundLoad load;
  load.Start(path, WorkerLimits());
  const app::GroundLoad::State state = Finish(&load);
  unsetenv("SKELVIEW_TEST_WORKER_CRASH");
  ASSERT_EQ(state, app::GroundLoad::State::kFailed);
  EXPECT_NE(load.error().find("crashed"), std::string::npos) << load.error();
  EXPECT_NE(load.error().find("ground-crash.glb"), std::string::npos) << load.error();
}

TEST(GroundLoad, AHangingReadIsCancelledAtOnce) {
  const std::string path = TiltedGround("ground-hang.glb");
  setenv("SKELVIEW_TEST_WORKER_HANG", "1", 1);  // the worker never answers
  app::GroundLoad load;
  load.Start(path, WorkerLimits());
  unsetenv("SKELVIEW_TEST_WORKER_HANG");
  EXPECT_EQ(load.Poll(), app::GroundLoad::State::kRunning);
  load.Cancel();
  EXPECT_EQ(load.state(), app::GroundLoad::State::kFailed);
  EXPECT_EQ(load.error(), path + ": cancelled");
}

TEST(GroundFromModel, RefusesTooManyTrianglesAndNone) {
  assets::Model model;
  assets::Mesh mesh;
  mesh.positions = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}};
  mesh.indices.assign(3 * (app::kMaxGroundTriangles + 1), 0u);
  mesh.indices[1] = 1;
  mesh.indices[2] = 2;
  model.meshes.push_back(mesh);
  app::Ground ground;
  std::string why;
  EXPECT_FALSE(app::GroundFromModel(model, "big.glb", &ground, &why));
  EXPECT_EQ(why.rfind("more than 1000000 triangles", 0), 0u) << why;
  model.meshes.clear();
  EXPECT_FALSE(app::GroundFromModel(model, "none.glb", &ground, &why));
  EXPECT_EQ(why, "the file has no triangles");
}

TEST(GroundSpec, MeshFilesAreGlbAndGltfInAnyCase) {
  for (const char* mesh : {"a.glb", "dir/B.GLB", "c.gltf", "-x.GlTf"}) {
    EXPECT_TRUE(app::IsGroundMeshSpec(mesh)) << mesh;
  }
  for (const char* other : {"plane", "ramp,degrees=5", "a.fbx", "glb", "a.glb.txt", ""}) {
    EXPECT_FALSE(app::IsGroundMeshSpec(other)) << other;
  }
}

}  // namespace
