/**
 * Before each browser test file: its lane's plain builds for Chromium and Firefox, made by the lane's
 * first file of the run and found made by the others (builds.ts).
 */
import { plainBuild } from './builds';

plainBuild('chrome');
plainBuild('firefox');
