// Argument parsing with CLI11 and dispatch to the viewer or a headless command. Numeric options are
// taken as text and converted by app/core/args.h's parsers, so every bad value gets one line naming
// the option and what is expected.
#include "app/cli/cli.h"

#include <CLI/CLI.hpp>
#include <climits>
#include <csignal>
#include <iostream>
#include <optional>
#include <sstream>

#include "app/cli/check.h"
#include "app/cli/commands.h"
#include "app/cli/retarget_command.h"
#include "app/core/import_process.h"
#include "app/core/import_server.h"
#include "app/window/viewer.h"
#include "assets/files/text.h"

namespace app {

namespace {

constexpr char kAllowOutsideFilesHelp[] =
    "Let the model read buffers and images outside its own folder (by default only files inside "
    "the model's folder are read)";
constexpr char kRawUnitsHelp[] =
    "Keep the file's own units and axes (by default FBX is scaled to metres and turned to +Y up "
    "as Blender imports it, and Collada's up axis is applied)";

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
  raw->anim_option = command->add_option(
      "--anim", raw->anim,
      "Animation clip index (from 0, in file order); I+J plays several clips together");
  raw->time_option = command->add_option(
      "--time", raw->time, "Time in the clip, seconds (clamped to the clip, with a warning)");
  command
      ->add_option("--ik", args->ik,
                   "Two-bone IK target: END=X,Y,Z[,pole=X,Y,Z][,weight=W][,soft=S]"
                   "[,hinge|,nohinge][,body] (world space; repeatable). The knee or elbow bends "
                   "the way its rest pose shows unless nohinge; body: the hips and spine move to "
                   "bring a far target within reach")
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
  command
      ->add_option("--pin", args->pin,
                   "Hold a joint while the body moves: JOINT (where the pose has it) or "
                   "JOINT=X,Y,Z, then [,weight=W] (hand, foot, hips, spine, head; repeatable)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  command
      ->add_option("--move", args->move,
                   "Place a joint of the body: JOINT=X,Y,Z (the root or hips move the whole "
                   "body; pinned hands and feet re-solve; repeatable)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  command->add_option("--body", args->body,
                      "How the body helps (full-body IK): [hips=W][,tilt=W][,spine=W]"
                      "[,turn=DEG][,iterations=N]");
  command
      ->add_option("--morph", args->morph,
                   "Set a morph target's weight: MESH:TARGET=W (names or indices; "
                   "overrides the clip's or default weight; repeatable)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  command->add_option("--session", args->session_path,
                      "Open a session (NAME.skelview): its model unless MODEL is given, its "
                      "chains, targets, pins, limits, rotations, clip and time");
  command->add_flag("--mirror", args->mirror,
                    "Mirror the final pose left to right (sides from the joint names, else from "
                    "the rig's symmetry)");
  command->add_flag("--allow-outside-files", args->allow_outside_files, kAllowOutsideFilesHelp);
  command->add_flag("--raw-units", args->raw_units, kRawUnitsHelp);
}

void AddSaveSession(CLI::App* command, PoseArgs* args) {
  command->add_option("--save-session", args->save_session_path,
                      "Also write the command line's model, constraints, clip and time as a "
                      "session file (NAME.skelview) for the window");
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
    std::vector<int> clips;
    if (!ParseAnimList(raw.anim, &clips, error)) return false;
    args->anim = clips[0];
    args->anim_together.assign(clips.begin() + 1, clips.end());
  }
  if (raw.time_option->count() > 0) {
    float time = 0.0f;
    if (!ParseSeconds("--time", raw.time, &time, error)) return false;
    args->time = time;
  }
  return true;
}

// The command line's parsed values: the viewer (no subcommand) and each subcommand's.
struct Commands {
  ViewerArgs viewer_args;
  RawOptions viewer_raw;
  std::string viewer_frames;
  CLI::Option* viewer_frames_option = nullptr;

  CLI::App* info = nullptr;
  std::string info_model;
  bool info_json = false, info_outside = false, info_raw_units = false;
  CLI::Option* info_model_option = nullptr;

  CLI::App* render = nullptr;
  PoseArgs render_args;
  RawOptions render_raw;
  std::string render_out, render_size;
  RenderLook render_look;

  CLI::App* pose = nullptr;
  PoseArgs pose_args;
  RawOptions pose_raw;
  bool pose_vertices = false;
  std::string pose_skinning = "cpu";

  CLI::App* exporter = nullptr;
  PoseArgs export_args;
  RawOptions export_raw;
  std::string export_out;
  bool export_bake = false;
  bool export_rom = false;
  CleanupArgs export_cleanup;
  std::string export_ground;
  CLI::Option* export_ground_option = nullptr;

  CLI::App* contacts = nullptr;
  PoseArgs contacts_args;
  std::string contacts_anim, contacts_ground;
  CLI::Option* contacts_model = nullptr;
  CLI::Option* contacts_anim_option = nullptr;
  CLI::Option* contacts_ground_option = nullptr;
  bool contacts_json = false;

  CLI::App* bench = nullptr;
  BenchArgs bench_args;
  std::string bench_characters, bench_frames, bench_anim;
  CLI::Option* bench_model_option = nullptr;
  CLI::Option* bench_characters_option = nullptr;
  CLI::Option* bench_frames_option = nullptr;
  CLI::Option* bench_anim_option = nullptr;

  CLI::App* check = nullptr;
  CheckArgs check_args;

  CLI::App* retarget = nullptr;
  RetargetArgs retarget_args;
  std::string retarget_anim;

  CLI::App* server = nullptr;

  CLI::App* worker = nullptr;
  std::string worker_path;
  bool worker_outside = false;
  bool worker_raw_units = false;
  bool worker_texture_pixels = true;
};

void AddViewer(CLI::App* cli, Commands* c) {
  cli->name("skelview");
  cli->require_subcommand(0, 1);
  cli->footer(
      "Exit codes: 0 success; 2 bad input (unreadable or invalid model, bad argument, an output "
      "that would overwrite the input model or a file it uses), with one line on stderr naming "
      "the file or argument; 1 when no OpenGL context can be made or a write fails (the previous "
      "file is then left as it was).");
  AddPoseOptions(cli, &c->viewer_args.pose, &c->viewer_raw);
  cli->add_option("--trace", c->viewer_args.trace_path,
                  "Append one JSON line per viewer event (ready, drag_end, exit) to FILE");
  c->viewer_frames_option =
      cli->add_option("--frames", c->viewer_frames, "Quit after N frames, N >= 1 (for scripts)");
  cli->add_option("--size", c->viewer_args.size, "Window size WxH");
  cli->add_option("--show", c->viewer_args.show,
                  "What the view shows this run (over the saved settings), only these: none, mesh, "
                  "grid, bones, axes, handles, knees, shells, limits, weights=JOINT, influences, "
                  "onion=N[:K], trail=JOINT, legend");
  cli->add_flag("--no-watch", c->viewer_args.no_watch,
                "Do not reload the model when its file changes on disk");
  cli->add_flag("--no-settings", c->viewer_args.no_settings,
                "Start from the default settings and save none (settings.json in "
                "$XDG_CONFIG_HOME/skelview, else ~/.config/skelview)");
}

void AddInfo(CLI::App* cli, Commands* c) {
  c->info = cli->add_subcommand("info", "Print meshes, joints, clips and detected limbs");
  c->info_model_option = AddModel(c->info, &c->info_model);
  c->info->add_flag("--json", c->info_json, "Print JSON");
  c->info->add_flag("--allow-outside-files", c->info_outside, kAllowOutsideFilesHelp);
  c->info->add_flag("--raw-units", c->info_raw_units, kRawUnitsHelp);
}

void AddRenderPoseExport(CLI::App* cli, Commands* c) {
  c->render =
      cli->add_subcommand("render", "Render the (posed) model to a PNG or JPEG image, headless");
  AddPoseOptions(c->render, &c->render_args, &c->render_raw);
  c->render
      ->add_option("-o,--output", c->render_out,
                   "Output image: .png, or .jpg / .jpeg. With {name} in it, MODEL may be a "
                   "folder: each of its models is drawn to OUT with {name} replaced by its name")
      ->required();
  AddSaveSession(c->render, &c->render_args);
  c->render->add_option(
      "--size", c->render_size,
      "Image size WxH (default 1280x720; at most what the OpenGL driver renders)");
  c->render->add_option("--show", c->render_look.show,
                        "What to draw, only these: none, mesh, grid, bones, axes, knees, shells, "
                        "limits, weights=JOINT, influences, onion=N[:K], trail=JOINT, legend "
                        "(comma-separated)");
  c->render->add_option("--view", c->render_look.view,
                        "Look along an axis: front, back, left, right, top or bottom");
  c->render->add_flag("--ortho", c->render_look.ortho, "Orthographic (parallel) projection");
  c->render->add_flag("--on-ground", c->render_look.on_ground,
                      "Stand the model on the grid: its rest pose's lowest point at y = 0");

  c->pose = cli->add_subcommand("pose", "Print the posed joints (and vertices) as JSON");
  AddPoseOptions(c->pose, &c->pose_args, &c->pose_raw);
  AddSaveSession(c->pose, &c->pose_args);
  c->pose->add_flag("--vertices", c->pose_vertices, "Include skinned vertex positions");
  c->pose->add_option("--skinning", c->pose_skinning, "Where to skin the vertices: cpu or gpu");

  c->exporter = cli->add_subcommand("export", "Write the model (posed) as glTF 2.0");
  AddPoseOptions(c->exporter, &c->export_args, &c->export_raw);
  c->exporter
      ->add_option("-o,--output", c->export_out, "Output .glb, or .gltf (with a .bin beside it)")
      ->required();
  AddSaveSession(c->exporter, &c->export_args);
  c->exporter->add_flag("--bake", c->export_bake,
                        "Bake clip --anim (default 0) with the --ik targets pinned, at the clip's "
                        "frame rate, instead of writing one pose");
  c->exporter->add_flag("--rom", c->export_rom,
                        "Write the model with a generated \"Range of motion\" clip (each leg, "
                        "arm and the spine through its --limit or a default range) as its clip");
  c->exporter->add_flag("--lock-feet", c->export_cleanup.lock_feet,
                        "With --bake: hold each planted foot where it landed (sole flat) during "
                        "its contacts, blending in and out; the hips drop where a foot cannot "
                        "be reached");
  c->export_ground_option = c->exporter->add_option(
      "--ground", c->export_ground,
      "With --lock-feet: the ground planted feet stand on: plane[,y=H], ramp,degrees=D, "
      "stairs,step=H,depth=D, or a .glb/.gltf mesh");

  c->contacts = cli->add_subcommand(
      "contacts", "Find the foot contacts of a clip and how much each foot slides (foot skate)");
  c->contacts_model = AddModel(c->contacts, &c->contacts_args.model_path);
  c->contacts_anim_option =
      c->contacts->add_option("--anim", c->contacts_anim, "Clip index (default 0)");
  c->contacts_ground_option = c->contacts->add_option(
      "--ground", c->contacts_ground,
      "The ground: plane[,y=H], ramp,degrees=D, stairs,step=H,depth=D, or a .glb/.gltf mesh "
      "(default: the plane y = 0)");
  c->contacts->add_flag("--json", c->contacts_json, "Print JSON");
  c->contacts->add_flag("--allow-outside-files", c->contacts_args.allow_outside_files,
                        kAllowOutsideFilesHelp);
  c->contacts->add_flag("--raw-units", c->contacts_args.raw_units, kRawUnitsHelp);
}

void AddBenchAndWorker(CLI::App* cli, Commands* c) {
  CLI::App* bench = cli->add_subcommand(
      "bench", "Update and draw a crowd of animated characters with IK; print frame times");
  c->bench = bench;
  c->bench_model_option = AddModel(bench, &c->bench_args.model_path);
  c->bench_characters_option = bench->add_option("--characters", c->bench_characters,
                                                 "Number of characters, 1 to 100000 (default 100)");
  c->bench_frames_option =
      bench->add_option("--frames", c->bench_frames, "Frames to run, 1 to 100000 (default 120)");
  c->bench_anim_option =
      bench->add_option("--anim", c->bench_anim, "Clip index, -1 for the rest pose (default 0)");
  bench->add_option("--size", c->bench_args.size, "Offscreen image size WxH (default 960x540)");
  bench->add_option("-o,--output", c->bench_args.out_path, "Write the last frame (.png, .jpg)");
  bench->add_flag("!--no-draw", c->bench_args.draw, "Only update, do not draw");
  bench->add_flag("--allow-outside-files", c->bench_args.allow_outside_files,
                  kAllowOutsideFilesHelp);
  bench->add_flag("--raw-units", c->bench_args.raw_units, kRawUnitsHelp);

  // The import worker (app/import_process.h) and its fork server (app/import_server.h): not for
  // users, so not listed in --help.
  c->server = cli->add_subcommand("import-server", "");
  c->server->group("");
  c->worker = cli->add_subcommand("import-worker", "");
  c->worker->group("");
  c->worker->add_flag("--allow-outside-files", c->worker_outside);
  c->worker->add_flag("--raw-units", c->worker_raw_units);
  c->worker->add_flag("!--no-texture-pixels", c->worker_texture_pixels);
  c->worker->add_option("file", c->worker_path)->required();
}

void AddCheck(CLI::App* cli, Commands* c) {
  CLI::App* check = cli->add_subcommand(
      "check", "Check rigs for what riggers get wrong, over many files (exit 1 on an error)");
  c->check = check;
  CheckArgs* args = &c->check_args;
  check->add_option("inputs", args->inputs,
                    "Model files, and folders walked for the formats skelview reads");
  check->add_option("--format", args->format, "Report format: text, jsonl, sarif or junit");
  check->add_option("-o,--output", args->output, "Write the report to this file");
  check->add_option("--shard", args->shard,
                    "Check part I of N of the sorted file list: I/N (I from 0), or N with I "
                    "from $SLURM_ARRAY_TASK_ID or $JOB_COMPLETION_INDEX");
  check->add_option("--config", args->config,
                    "Rule severities: {\"rules\": {\"ID\": \"off|note|warning|error\"}}");
  check->add_option("--jobs", args->jobs,
                    "Files checked at once, 1 to 1024 (default: one per CPU available)");
  check->add_flag("--list-rules", args->list_rules,
                  "List the rules: id, severity, description (with --config applied)");
  check->add_flag("--allow-outside-files", args->allow_outside_files, kAllowOutsideFilesHelp);
  check->add_flag("--raw-units", args->raw_units, kRawUnitsHelp);
}

void AddRetarget(CLI::App* cli, Commands* c) {
  CLI::App* r = cli->add_subcommand(
      "retarget", "Play a clip of one rig on another: the target model with the clip added");
  c->retarget = r;
  RetargetArgs* args = &c->retarget_args;
  r->add_option("source", args->source,
                "Model whose clip is played (builtin: the built-in character)")
      ->required();
  r->add_option("--onto", args->target, "Model that plays it (builtin: the built-in character)")
      ->required();
  r->add_option("-o,--output", args->out, "Output .glb, or .gltf (with a .bin beside it)")
      ->required();
  r->add_option("--anim", c->retarget_anim, "The source's clip index (default 0)");
  r->add_option("--map", args->map,
                "Joint pairs that override the automatic mapping: a JSON file "
                "{\"source joint\": \"target joint\", ...}");
  r->add_option("--report", args->report,
                "Write the mapping and the measures (end-effector error, contacts kept, foot "
                "sliding, bone-length ratios, warnings) as JSON");
  r->add_flag("--allow-outside-files", args->allow_outside_files, kAllowOutsideFilesHelp);
  r->add_flag("--raw-units", args->raw_units, kRawUnitsHelp);
}

// Parses; on --help or a parse error returns the exit code to leave with.
std::optional<int> Parse(CLI::App* cli, int argc, char** argv) {
  try {
    cli->parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {  // --help, written with every write checked
      std::ostringstream help;
      cli->exit(e, help, std::cerr);
      std::string error;
      if (WriteStandardOutput(help.str(), &error)) return kExitOk;
      std::cerr << "skelview: " << assets::MessageLine(error) << "\n";
      return kExitFailure;
    }
    std::cerr << "skelview: " << assets::MessageLine(e.what()) << " (see skelview --help)\n";
    return kExitBadInput;
  }
  return std::nullopt;
}

// Converts the bench command's raw numbers; false with the message.
bool FinishBenchArgs(Commands* c, std::string* error) {
  if (!CheckModelName(c->bench_model_option, c->bench_args.model_path, error)) return false;
  long value = 0;
  if (c->bench_characters_option->count() > 0) {
    if (!ParseWholeNumber("--characters", c->bench_characters, 1, 100000, &value, error)) {
      return false;
    }
    c->bench_args.characters = static_cast<int>(value);
  }
  if (c->bench_frames_option->count() > 0) {
    if (!ParseWholeNumber("--frames", c->bench_frames, 1, 100000, &value, error)) return false;
    c->bench_args.frames = static_cast<int>(value);
  }
  if (c->bench_anim_option->count() > 0) {
    if (!ParseWholeNumber("--anim", c->bench_anim, -1, INT_MAX, &value, error)) return false;
    c->bench_args.clip = static_cast<int>(value);
  }
  return true;
}

// Converts the viewer's raw options; false with the message.
bool FinishViewerArgs(Commands* c, std::string* error) {
  if (!FinishPoseArgs(c->viewer_raw, &c->viewer_args.pose, error)) return false;
  c->viewer_args.session_path = c->viewer_args.pose.session_path;
  if (c->viewer_frames_option->count() > 0) {
    long frames = 0;
    if (!ParseWholeNumber("--frames", c->viewer_frames, 1, INT_MAX, &frames, error)) return false;
    c->viewer_args.max_frames = static_cast<int>(frames);
  }
  return true;
}

// Runs the parsed command; a bad argument leaves `error` set and returns nullopt.
std::optional<int> RunParsed(Commands* c, std::string* error) {
  if (c->server->parsed()) return RunImportServer();
  if (c->check->parsed()) return RunCheck(c->check_args);
  if (c->worker->parsed()) {
    return RunImportWorker(c->worker_path, c->worker_outside, c->worker_raw_units,
                           c->worker_texture_pixels);
  }
  if (c->info->parsed()) {
    if (!CheckModelName(c->info_model_option, c->info_model, error)) return std::nullopt;
    return RunInfo(c->info_model, c->info_json, c->info_outside, c->info_raw_units);
  }
  if (c->render->parsed()) {
    if (!FinishPoseArgs(c->render_raw, &c->render_args, error)) return std::nullopt;
    return RunRender(c->render_args, c->render_out, c->render_size, c->render_look);
  }
  if (c->pose->parsed()) {
    if (!FinishPoseArgs(c->pose_raw, &c->pose_args, error)) return std::nullopt;
    return RunPose(c->pose_args, c->pose_vertices, c->pose_skinning);
  }
  if (c->exporter->parsed()) {
    if (!FinishPoseArgs(c->export_raw, &c->export_args, error)) return std::nullopt;
    if (c->export_ground_option->count() > 0) c->export_cleanup.ground = c->export_ground;
    return RunExport(c->export_args, c->export_out, c->export_bake, c->export_rom,
                     c->export_cleanup);
  }
  if (c->contacts->parsed()) {
    if (!CheckModelName(c->contacts_model, c->contacts_args.model_path, error)) {
      return std::nullopt;
    }
    if (c->contacts_anim_option->count() > 0) {
      long clip = 0;
      if (!ParseWholeNumber("--anim", c->contacts_anim, 0, INT_MAX, &clip, error)) {
        return std::nullopt;
      }
      c->contacts_args.anim = static_cast<int>(clip);
    }
    std::optional<std::string> ground;
    if (c->contacts_ground_option->count() > 0) ground = c->contacts_ground;
    return RunContacts(c->contacts_args, ground, c->contacts_json);
  }
  if (c->retarget->parsed()) {
    if (!c->retarget_anim.empty()) {
      long clip = 0;
      if (!ParseWholeNumber("--anim", c->retarget_anim, 0, INT_MAX, &clip, error)) {
        return std::nullopt;
      }
      c->retarget_args.anim = static_cast<int>(clip);
    }
    return RunRetarget(c->retarget_args);
  }
  if (c->bench->parsed()) {
    if (!FinishBenchArgs(c, error)) return std::nullopt;
    return RunBench(c->bench_args);
  }
  if (!FinishViewerArgs(c, error)) return std::nullopt;
  return RunViewer(c->viewer_args);
}

int Dispatch(int argc, char** argv) {
  CLI::App cli{"skelview: view rigged characters, pose them with two-bone IK"};
  Commands commands;
  AddViewer(&cli, &commands);
  AddInfo(&cli, &commands);
  AddRenderPoseExport(&cli, &commands);
  AddBenchAndWorker(&cli, &commands);
  AddCheck(&cli, &commands);
  AddRetarget(&cli, &commands);
  if (const std::optional<int> code = Parse(&cli, argc, argv)) return *code;
  std::string error;
  if (const std::optional<int> code = RunParsed(&commands, &error)) return *code;
  std::cerr << "skelview: " << assets::MessageLine(error) << "\n";
  return kExitBadInput;
}

}  // namespace

int RunCommandLine(int argc, char** argv) {
  // A file-size limit (ulimit -f) then makes a write fail with EFBIG, which is reported, instead
  // of killing the process half-way through a file.
  std::signal(SIGXFSZ, SIG_IGN);
  int code = Dispatch(argc, argv);
  std::string error;
  if (!FlushStandardOutput(&error)) {
    std::cerr << "skelview: " << assets::MessageLine(error) << "\n";
    if (code == kExitOk) code = kExitFailure;
  }
  return code;
}

}  // namespace app
