// Runs the Khronos glTF Validator (npm package gltf-validator, path in $GLTF_VALIDATOR) on one
// .glb or .gltf file and prints its report's counts and messages as one JSON line.
// Usage: node validate_gltf.js FILE
'use strict';
const fs = require('fs');
const path = require('path');
const validator = require(process.env.GLTF_VALIDATOR || 'gltf-validator');

const file = process.argv[2];
const readResource = (uri) => new Promise((resolve, reject) => {
  fs.readFile(path.join(path.dirname(file), decodeURIComponent(uri)),
              (err, data) => (err ? reject(String(err)) : resolve(new Uint8Array(data))));
});
validator.validateBytes(new Uint8Array(fs.readFileSync(file)), {
  uri: path.basename(file),
  maxIssues: 0,  // every issue
  externalResourceFunction: readResource,
}).then((report) => {
  const issues = report.issues;
  console.log(JSON.stringify({
    errors: issues.numErrors,
    warnings: issues.numWarnings,
    messages: issues.messages.filter((m) => m.severity <= 1).map((m) => ({
      code: m.code, severity: m.severity === 0 ? 'error' : 'warning',
      pointer: m.pointer || '', message: m.message,
    })),
  }));
}, (error) => {
  console.error(`validate_gltf: ${file}: ${error}`);
  process.exit(1);
});
