#!/usr/bin/env python3
"""Self-test of tests/layering_test.py (ctest `layering_selftest`): made-up trees in a temporary
folder, each with one kind of violation, must be caught with the right message; a clean tree
passes. Run: layering_selftest.py (no arguments)."""

import copy
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import layering_test as layering  # noqa: E402

# A small tree that keeps every rule: one header per room it names, includes going the right way.
CLEAN = {
    "ik/core/transform.h": "#pragma once\n#include <glm/glm.hpp>\n",
    "ik/core/constraint_util.h": '#pragma once\n#include "ik/core/transform.h"\n',
    "ik/two_bone/two_bone_ik.h": '#pragma once\n#include "ik/core/transform.h"\n',
    "ik/two_bone/two_bone_ik.cpp": '#include "ik/two_bone/two_bone_ik.h"\n'
                                   '#include "ik/core/constraint_util.h"\n',
    "ik/limits/joint_limits.h": '#pragma once\n#include "ik/two_bone/two_bone_ik.h"\n',
    "assets/model/model.h": '#pragma once\n#include "ik/core/transform.h"\n',
    "assets/files/text.h": '#pragma once\n#include "assets/model/model.h"\n',
    "assets/files/messages.h": "#pragma once\n#include <string>\n",
    "assets/gltf/gltf_reader_steps.h": '#pragma once\n#include "assets/files/messages.h"\n',
    "assets/gltf/gltf_reader.cpp": '#include "assets/gltf/gltf_reader_steps.h"\n'
                                   '#include <nlohmann/json.hpp>\n',
    "assets/assimp/scene.cpp": '#include <assimp/scene.h>\n#include "assets/files/text.h"\n',
    "assets/importer.h": '#pragma once\n#include "assets/model/model.h"\n',
    "renderer/draw.cpp": '#include "assets/importer.h"\n#include "ik/limits/joint_limits.h"\n',
}

PRIVATE = {
    "ik/core/constraint_util.h": "library",
    "assets/files/messages.h": "library",
    "assets/gltf/gltf_reader_steps.h": "room",
}


class LayeringCheck(unittest.TestCase):
    def setUp(self):
        self.saved = (copy.deepcopy(layering.ALLOWED), dict(layering.PRIVATE))
        layering.PRIVATE.clear()
        layering.PRIVATE.update(PRIVATE)

    def tearDown(self):
        layering.ALLOWED.clear()
        layering.ALLOWED.update(self.saved[0])
        layering.PRIVATE.clear()
        layering.PRIVATE.update(self.saved[1])

    def check(self, changes):
        """Violations of CLEAN with `changes` (path -> text, None removes) applied."""
        tree = dict(CLEAN)
        for path, text in changes.items():
            if text is None:
                tree.pop(path, None)
            else:
                tree[path] = text
        with tempfile.TemporaryDirectory() as source:
            for path, text in tree.items():
                full = os.path.join(source, path)
                os.makedirs(os.path.dirname(full), exist_ok=True)
                with open(full, "w", encoding="utf-8") as f:
                    f.write(text)
            checked, problems = layering.check_tree(source)
        self.assertEqual(checked, len(tree))
        return problems

    def assertCaught(self, problems, *fragments):
        self.assertTrue(problems, "no violation found")
        for fragment in fragments:
            self.assertTrue(any(fragment in p for p in problems),
                            f"{fragment!r} not in {problems}")

    def test_clean_tree_passes(self):
        self.assertEqual(self.check({}), [])

    def test_include_against_the_room_order_is_caught(self):
        problems = self.check({"ik/core/rotation.cpp": '#include "ik/limits/joint_limits.h"\n'})
        self.assertCaught(problems, "ik/core/rotation.cpp:1: includes ik/limits/joint_limits.h: "
                          "ik/core may include only ik/core")

    def test_room_passed_on_through_a_header_is_caught(self):
        # builtin may include model, but this model header includes files/ (which builtin may
        # not): the header's own include and the builtin file that receives it are both named.
        problems = self.check({
            "assets/model/model.h": '#pragma once\n#include "assets/files/text.h"\n',
            "assets/builtin/character.cpp": '#include "assets/model/model.h"\n',
        })
        self.assertCaught(
            problems,
            "assets/model/model.h:2: includes assets/files/text.h: assets/model may include only",
            "assets/builtin/character.cpp:1: includes assets/model/model.h, which passes on "
            "assets/files/text.h (assets/model/model.h -> assets/files/text.h): assets/builtin "
            "may not include assets/files")

    def test_passed_on_is_caught_when_every_direct_include_is_allowed(self):
        # A table that is not transitively closed: limits may include two_bone, two_bone may
        # include core, limits may not include core. Only the passed-on check sees it.
        layering.ALLOWED["ik/limits"] = {"ik/two_bone"}
        problems = self.check({})
        self.assertEqual(len(problems), 1, problems)  # every direct include is allowed
        self.assertCaught(
            problems,
            "ik/limits/joint_limits.h:2: includes ik/two_bone/two_bone_ik.h, which passes on "
            "ik/core/transform.h (ik/two_bone/two_bone_ik.h -> ik/core/transform.h): ik/limits "
            "may not include ik/core")

    def test_passed_on_two_headers_deep_is_caught(self):
        layering.ALLOWED["assets/builtin"] = {"assets/files"}
        problems = self.check({"assets/builtin/iso.cpp": '#include "assets/files/text.h"\n'})
        self.assertCaught(problems, "assets/files/text.h -> assets/model/model.h",
                          "assets/builtin may not include assets/model")

    def test_room_private_header_from_another_room_is_caught(self):
        problems = self.check(
            {"assets/assimp/morphs.cpp": '#include "assets/gltf/gltf_reader_steps.h"\n'})
        self.assertCaught(problems, "assets/assimp/morphs.cpp:1: includes "
                          "assets/gltf/gltf_reader_steps.h: private to assets/gltf/")

    def test_library_private_header_from_another_library_is_caught(self):
        problems = self.check({"renderer/text.cpp": '#include "assets/files/messages.h"\n'})
        self.assertCaught(problems, "renderer/text.cpp:1: includes assets/files/messages.h: "
                          "private to assets/")

    def test_public_header_passing_on_a_private_one_is_caught(self):
        problems = self.check({
            "assets/gltf/gltf_model.h": '#pragma once\n#include "assets/gltf/gltf_reader_steps.h"\n'
        })
        self.assertCaught(problems, "assets/gltf/gltf_model.h:2: includes "
                          "assets/gltf/gltf_reader_steps.h: a public header passes on a private one")

    def test_inc_file_is_private_to_its_room(self):
        problems = self.check({
            "ik/two_bone/kernel.inc": "// kernel\n",
            "ik/limits/joint_limits.cpp": '#include "ik/two_bone/kernel.inc"\n',
        })
        self.assertCaught(problems, "includes ik/two_bone/kernel.inc: private to ik/two_bone/")

    def test_internal_folder_is_caught(self):
        problems = self.check({"assets/internal/helper.h": "#pragma once\n"})
        self.assertCaught(problems, "assets/internal/helper.h: internal/ folders are gone")

    def test_file_outside_every_room_is_caught(self):
        problems = self.check({"ik/loose.cpp": "int x;\n"})
        self.assertCaught(problems, "ik/loose.cpp: not in a room of its library")

    def test_third_party_in_the_wrong_room_is_caught(self):
        problems = self.check({"assets/model/skin.cpp": "#include <assimp/scene.h>\n",
                               "assets/files/text.h": "#pragma once\n#include <nlohmann/json.hpp>\n"})
        self.assertCaught(problems, "includes assimp/scene.h: no Assimp in assets/model",
                          "includes nlohmann/json.hpp: no nlohmann in assets/files")

    def test_public_header_passing_on_a_third_party_header_is_caught(self):
        problems = self.check({"assets/gltf/document.h": "#pragma once\n#include <nlohmann/json.hpp>\n"})
        self.assertCaught(problems, "assets/gltf/document.h:2: includes nlohmann/json.hpp: a "
                          "header passes nlohmann on")

    def test_cycle_in_the_room_table_is_caught(self):
        layering.ALLOWED["ik/core"] = {"ik/body"}
        problems = self.check({})
        self.assertCaught(problems, "ALLOWED has a cycle")

    def test_stale_private_entry_is_caught(self):
        problems = self.check({"assets/gltf/gltf_reader_steps.h": None,
                               "assets/gltf/gltf_reader.cpp": None})
        self.assertCaught(problems, "PRIVATE names assets/gltf/gltf_reader_steps.h, which does not "
                          "exist")

    def test_real_table_has_no_cycle(self):
        self.assertEqual(layering.check_table(), [])


if __name__ == "__main__":
    unittest.main(verbosity=2)
