// Argument parsing with CLI11 and dispatch to the viewer or a headless command. Numeric options are
// taken as text and converted by app/core/args.h's parsers, so every bad value gets one line naming
// the option and what is expected.
#include "app/cli/cli.h"

#include <CLI/CLI.hpp>
#include <climits>
#include <csignal>
#include <iostream>
#include <sstream>

#include "app/cli/commands.h"
#include "app/core/import_process.h"
#include "app/window/viewer.h"

namespace app {

namespace {

constexpr char kAllowOutsideFilesHelp[] =
    "Let the model read buffers and images outside its own folder (by default only files inside "
    "the model's folder are read)";

// A command's options that are checked after parsing.
struct RawOptions {
  CLI::Option* model = nullptr;
  std::string anim, time;
  CLI::Option* anim_option = nullptr;
  CLI::Option* time_option = nullptr;
};

CLI::Option* AddModel(CLI::App* command, std::string* path) {
  return command->add_option("model", *path,
                             "Model file (default: the built-in character; put it after -- when "
                             "its name starts with '-')");
}

void AddPoseOptions(CLI::App* command, PoseArgs* args, RawOptions* raw) {
  raw->model = AddModel(command, &args->model_path);
  raw->anim_option = command->add_option("--anim", raw->anim, "Animation clip index (from 0)");
  raw->time_option = command->add_option(
      "--time", raw->time, "Time in the clip, seconds (clamped to the clip, with a warning)");
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
  command->add_flag("--allow-outside-files", args->allow_outside_files, kAllowOutsideFilesHelp);
}

bool CheckModelName(const CLI::Option* model, const std::string& path, std::string* error) {
  if (model->count() == 0 || !path.empty()) return true;
  *error = "MODEL '': the file name is empty (leave MODEL out for the built-in character)";
  return false;
}

// Converts the raw --anim and --time of a pose command; false with the message.
bool FinishPoseArgs(const RawOptions& raw, PoseArgs* args, std::string* error) {
  if (!CheckModelName(raw.model, args->model_path, error)) return false;
  if (raw.anim_option->count() > 0) {
    long anim = 0;
    if (!ParseWholeNumber("--anim", raw.anim, 0, INT_MAX, &anim, error)) return false;
    args->anim = static_cast<int>(anim);
  }
  if (raw.time_option->count() > 0) {
    float time = 0.0f;
    if (!ParseSeconds("--time", raw.time, &time, error)) return false;
    args->time = time;
  }
  return true;
}

int Dispatch(int argc, char** argv) {
  CLI::App cli{"skelview: view rigged characters, pose them with two-bone IK"};
  cli.name("skelview");
  cli.require_subcommand(0, 1);
  cli.footer(
      "Exit codes: 0 success; 2 bad input (unreadable or invalid model, bad argument, an output "
      "that would overwrite the input model or a file it uses), with one line on stderr naming "
      "the file or argument; 1 when no OpenGL context can be made or a write fails (the previous "
      "file is then left as it was).");

  ViewerArgs viewer_args;
  RawOptions viewer_raw;
  AddPoseOptions(&cli, &viewer_args.pose, &viewer_raw);
  cli.add_option("--trace", viewer_args.trace_path,
                 "Append one JSON line per viewer event (ready, drag_end, exit) to FILE");
  std::string viewer_frames;
  CLI::Option* viewer_frames_option =
      cli.add_option("--frames", viewer_frames, "Quit after N frames, N >= 1 (for scripts)");
  cli.add_option("--size", viewer_args.size, "Window size WxH");

  std::string info_model;
  bool info_json = false, info_outside = false;
  CLI::App* info = cli.add_subcommand("info", "Print meshes, joints, clips and detected limbs");
  CLI::Option* info_model_option = AddModel(info, &info_model);
  info->add_flag("--json", info_json, "Print JSON");
  info->add_flag("--allow-outside-files", info_outside, kAllowOutsideFilesHelp);

  PoseArgs render_args;
  RawOptions render_raw;
  std::string render_out, render_size;
  CLI::App* render =
      cli.add_subcommand("render", "Render the (posed) model to a PNG or JPEG image, headless");
  AddPoseOptions(render, &render_args, &render_raw);
  render->add_option("-o,--output", render_out, "Output image: .png, or .jpg / .jpeg")->required();
  render->add_option("--size", render_size,
                     "Image size WxH (default 1280x720; at most what the OpenGL driver renders)");

  PoseArgs pose_args;
  RawOptions pose_raw;
  bool pose_vertices = false;
  std::string pose_skinning = "cpu";
  CLI::App* pose = cli.add_subcommand("pose", "Print the posed joints (and vertices) as JSON");
  AddPoseOptions(pose, &pose_args, &pose_raw);
  pose->add_flag("--vertices", pose_vertices, "Include skinned vertex positions");
  pose->add_option("--skinning", pose_skinning, "Where to skin the vertices: cpu or gpu");

  PoseArgs export_args;
  RawOptions export_raw;
  std::string export_out;
  CLI::App* exporter = cli.add_subcommand("export", "Write the model (posed) as glTF 2.0");
  AddPoseOptions(exporter, &export_args, &export_raw);
  exporter->add_option("-o,--output", export_out, "Output .glb, or .gltf (with a .bin beside it)")
      ->required();
  bool export_bake = false;
  exporter->add_flag("--bake", export_bake,
                     "Bake clip --anim (default 0) with the --ik targets pinned, at the clip's "
                     "frame rate, instead of writing one pose");

  BenchArgs bench_args;
  std::string bench_characters, bench_frames, bench_anim;
  CLI::App* bench = cli.add_subcommand(
      "bench", "Update and draw a crowd of animated characters with IK; print frame times");
  CLI::Option* bench_model_option = AddModel(bench, &bench_args.model_path);
  CLI::Option* bench_characters_option = bench->add_option(
      "--characters", bench_characters, "Number of characters, 1 to 100000 (default 100)");
  CLI::Option* bench_frames_option =
      bench->add_option("--frames", bench_frames, "Frames to run, 1 to 100000 (default 120)");
  CLI::Option* bench_anim_option =
      bench->add_option("--anim", bench_anim, "Clip index, -1 for the rest pose (default 0)");
  bench->add_option("--size", bench_args.size, "Offscreen image size WxH (default 960x540)");
  bench->add_option("-o,--output", bench_args.out_path, "Write the last frame (.png, .jpg)");
  bench->add_flag("!--no-draw", bench_args.draw, "Only update, do not draw");
  bench->add_flag("--allow-outside-files", bench_args.allow_outside_files, kAllowOutsideFilesHelp);

  // The import worker (app/import_process.h): not for users, so not listed in --help.
  std::string worker_path;
  bool worker_outside = false;
  CLI::App* worker = cli.add_subcommand("import-worker", "");
  worker->group("");
  worker->add_flag("--allow-outside-files", worker_outside);
  worker->add_option("file", worker_path)->required();

  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {  // --help, written with every write checked
      std::ostringstream help;
      cli.exit(e, help, std::cerr);
      std::string error;
      if (WriteStandardOutput(help.str(), &error)) return kExitOk;
      std::cerr << "skelview: " << error << "\n";
      return kExitFailure;
    }
    std::cerr << "skelview: " << e.what() << " (see skelview --help)\n";
    return kExitBadInput;
  }

  if (worker->parsed()) return RunImportWorker(worker_path, worker_outside);

  std::string error;
  auto bad_input = [&error]() {
    std::cerr << "skelview: " << error << "\n";
    return kExitBadInput;
  };
  if (info->parsed()) {
    if (!CheckModelName(info_model_option, info_model, &error)) return bad_input();
    return RunInfo(info_model, info_json, info_outside);
  }
  if (render->parsed()) {
    if (!FinishPoseArgs(render_raw, &render_args, &error)) return bad_input();
    return RunRender(render_args, render_out, render_size);
  }
  if (pose->parsed()) {
    if (!FinishPoseArgs(pose_raw, &pose_args, &error)) return bad_input();
    return RunPose(pose_args, pose_vertices, pose_skinning);
  }
  if (exporter->parsed()) {
    if (!FinishPoseArgs(export_raw, &export_args, &error)) return bad_input();
    return RunExport(export_args, export_out, export_bake);
  }
  if (bench->parsed()) {
    if (!CheckModelName(bench_model_option, bench_args.model_path, &error)) return bad_input();
    long value = 0;
    if (bench_characters_option->count() > 0) {
      if (!ParseWholeNumber("--characters", bench_characters, 1, 100000, &value, &error)) {
        return bad_input();
      }
      bench_args.characters = static_cast<int>(value);
    }
    if (bench_frames_option->count() > 0) {
      if (!ParseWholeNumber("--frames", bench_frames, 1, 100000, &value, &error)) {
        return bad_input();
      }
      bench_args.frames = static_cast<int>(value);
    }
    if (bench_anim_option->count() > 0) {
      if (!ParseWholeNumber("--anim", bench_anim, -1, INT_MAX, &value, &error)) return bad_input();
      bench_args.clip = static_cast<int>(value);
    }
    return RunBench(bench_args);
  }
  if (!FinishPoseArgs(viewer_raw, &viewer_args.pose, &error)) return bad_input();
  if (viewer_frames_option->count() > 0) {
    long frames = 0;
    if (!ParseWholeNumber("--frames", viewer_frames, 1, INT_MAX, &frames, &error)) {
      return bad_input();
    }
    viewer_args.max_frames = static_cast<int>(frames);
  }
  return RunViewer(viewer_args);
}

}  // namespace

int RunCommandLine(int argc, char** argv) {
  // A file-size limit (ulimit -f) then makes a write fail with EFBIG, which is reported, instead
  // of killing the process half-way through a file.
  std::signal(SIGXFSZ, SIG_IGN);
  int code = Dispatch(argc, argv);
  std::string error;
  if (!FlushStandardOutput(&error)) {
    std::cerr << "skelview: " << error << "\n";
    if (code == kExitOk) code = kExitFailure;
  }
  return code;
}

}  // namespace app
