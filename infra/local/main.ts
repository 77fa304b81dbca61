// `npm start`: the one-machine runtime. It grows with the project; for now it says what is there.
console.log('openweb-exports local runtime: not available yet (the OpenWeb client and credentials are library-only).');
