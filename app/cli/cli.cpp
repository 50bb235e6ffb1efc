// Argument parsing with CLI11 and dispatch to the viewer or a headless command.
#include "app/cli/cli.h"

#include <CLI/CLI.hpp>
#include <iostream>

#include "app/cli/commands.h"
#include "app/core/import_process.h"
#include "app/window/viewer.h"

namespace app {

namespace {

void AddPoseOptions(CLI::App* command, PoseArgs* args) {
  command->add_option("model", args->model_path, "Model file (default: the built-in character)");
  command->add_option("--anim", args->anim, "Animation clip index");
  command->add_option("--time", args->time, "Time in the clip, seconds (clamped to its length)");
  command
      ->add_option("--ik", args->ik,
                   "Two-bone IK target: END=X,Y,Z[,pole=X,Y,Z][,weight=W][,soft=S][,hinge] "
                   "(world space; repeatable)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  command
      ->add_option("--aim", args->aim,
                   "Point a bone at a world point or a joint: BONE=X,Y,Z or BONE=JOINT "
                   "[,weight=W][,spread=N][,falloff=F][,up=X,Y,Z][,axis=X,Y,Z] (repeatable)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  command
      ->add_option("--fabrik", args->fabrik,
                   "FABRIK chain from ROOT down to END: ROOT:END=X,Y,Z[,tolerance=T]"
                   "[,iterations=N] (repeatable)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  command
      ->add_option("--limit", args->limit,
                   "Joint limit from the rest pose, degrees: JOINT=hinge,AX,AY,AZ,MIN,MAX or "
                   "JOINT=cone,ANGLE[,TWISTMIN,TWISTMAX] (repeatable)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

}  // namespace

int RunCommandLine(int argc, char** argv) {
  CLI::App cli{"skelview: view rigged characters, pose them with two-bone IK"};
  cli.name("skelview");
  cli.require_subcommand(0, 1);

  ViewerArgs viewer_args;
  AddPoseOptions(&cli, &viewer_args.pose);
  cli.add_option("--trace", viewer_args.trace_path,
                 "Append one JSON line per viewer event (ready, drag_end, exit) to FILE");
  cli.add_option("--frames", viewer_args.max_frames, "Quit after N frames (for scripts)");
  cli.add_option("--size", viewer_args.size, "Window size WxH");

  std::string info_model;
  bool info_json = false;
  CLI::App* info = cli.add_subcommand("info", "Print meshes, joints, clips and detected limbs");
  info->add_option("model", info_model, "Model file (default: the built-in character)");
  info->add_flag("--json", info_json, "Print JSON");

  PoseArgs render_args;
  std::string render_out, render_size;
  CLI::App* render = cli.add_subcommand("render", "Render the (posed) model to a PNG, headless");
  AddPoseOptions(render, &render_args);
  render->add_option("-o,--output", render_out, "Output PNG")->required();
  render->add_option("--size", render_size, "Image size WxH (default 1280x720)");

  PoseArgs pose_args;
  bool pose_vertices = false;
  std::string pose_skinning = "cpu";
  CLI::App* pose = cli.add_subcommand("pose", "Print the posed joints (and vertices) as JSON");
  AddPoseOptions(pose, &pose_args);
  pose->add_flag("--vertices", pose_vertices, "Include skinned vertex positions");
  pose->add_option("--skinning", pose_skinning, "Where to skin the vertices: cpu or gpu");

  PoseArgs export_args;
  std::string export_out;
  CLI::App* exporter = cli.add_subcommand("export", "Write the model (posed) as glTF 2.0");
  AddPoseOptions(exporter, &export_args);
  exporter->add_option("-o,--output", export_out, "Output .glb or .gltf")->required();
  bool export_bake = false;
  exporter->add_flag("--bake", export_bake,
                     "Bake clip --anim (default 0) with the --ik targets pinned, at the clip's "
                     "frame rate, instead of writing one pose");

  BenchArgs bench_args;
  CLI::App* bench = cli.add_subcommand(
      "bench", "Update and draw a crowd of animated characters with IK; print frame times");
  bench->add_option("model", bench_args.model_path, "Model file (default: the built-in character)");
  bench->add_option("--characters", bench_args.characters, "Number of characters (default 100)");
  bench->add_option("--frames", bench_args.frames, "Frames to run (default 120)");
  bench->add_option("--anim", bench_args.clip, "Clip index, -1 for the rest pose (default 0)");
  bench->add_option("--size", bench_args.size, "Offscreen image size WxH (default 960x540)");
  bench->add_option("-o,--output", bench_args.out_path, "Write the last frame as PNG");
  bench->add_flag("!--no-draw", bench_args.draw, "Only update, do not draw");

  // The import worker (app/import_process.h): not for users, so not listed in --help.
  std::string worker_path;
  CLI::App* worker = cli.add_subcommand("import-worker", "");
  worker->group("");
  worker->add_option("file", worker_path)->required();

  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return cli.exit(e);  // --help
    std::cerr << "skelview: " << e.what() << " (see skelview --help)\n";
    return kExitBadInput;
  }

  if (worker->parsed()) return RunImportWorker(worker_path);
  if (info->parsed()) return RunInfo(info_model, info_json);
  if (render->parsed()) return RunRender(render_args, render_out, render_size);
  if (pose->parsed()) return RunPose(pose_args, pose_vertices, pose_skinning);
  if (exporter->parsed()) return RunExport(export_args, export_out, export_bake);
  if (bench->parsed()) return RunBench(bench_args);
  return RunViewer(viewer_args);
}

}  // namespace app
