// Run before `npm start`, `npm test` and the scripts: on an unsupported Node the tools fail later
// with errors that do not say why, so say it first. Plain JavaScript: it must run on any Node.
const [major, minor] = process.versions.node.split('.').map(Number);
const supported = (major === 20 && minor >= 19) || (major === 22 && minor >= 12) || major > 22;
if (!supported) {
  console.error(
    `This project needs Node 20.19+ or 22.12+, and this is Node ${process.versions.node}: install a supported Node (for example with nvm), then try again.`,
  );
  process.exit(1);
}
