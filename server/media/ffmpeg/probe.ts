import { basename } from 'node:path';
import { MediaError } from './media-error';

export type ProbeResult = {
  /** Container duration (seconds); 0 for a still picture. */
  durationSec: number;
  /** Displayed size of the first video stream: rotation (phone clips) and sample aspect ratio applied. 0 when there is no video. */
  width: number;
  height: number;
  /** Average frame rate of the video stream (0 when unknown or a still picture). */
  fps: number;
  hasAudio: boolean;
  videoCodec: string | null;
  audioCodec: string | null;
  /** Video profile as ffprobe names it ('High', 'Main', ...), or null. */
  profile: string | null;
  pixFmt: string | null;
  /** Audio sample rate in Hz (0 without audio). */
  sampleRate: number;
  audioChannels: number;
  /** ffprobe's demuxer name, e.g. 'mov,mp4,m4a,3gp,3g2,mj2', 'matroska,webm', 'image2', 'png_pipe'. */
  formatName: string;
  /** Rotation in degrees from the display matrix or the rotate tag (0, 90, 180, 270). */
  rotation: number;
  /** Stored (coded) size before rotation. */
  codedWidth: number;
  codedHeight: number;
  /** Number of video frames when the container says so (0 when unknown). */
  frames: number;
};

/**
 * Demuxers ffprobe may use on uploaded files. A whitelist, because some demuxers (HLS, concat, ...)
 * would open other files or URLs named inside an uploaded "video" (local-file disclosure / SSRF).
 */
export const IMAGE_FORMATS = ['image2', 'jpeg_pipe', 'png_pipe', 'webp_pipe', 'bmp_pipe', 'tiff_pipe', 'gif'];
const VIDEO_FORMATS = ['mov', 'matroska', 'avi', 'flv', 'mpegts', 'mpeg', 'asf', 'ogg', 'gif'];
export const FORMAT_WHITELIST = [...new Set([...VIDEO_FORMATS, ...IMAGE_FORMATS])].join(',');
export const IMAGE_CODECS = new Set(['mjpeg', 'png', 'webp', 'bmp', 'tiff', 'gif']);

const num = (v: unknown): number => {
  if (typeof v === 'number') return Number.isFinite(v) ? v : 0;
  if (typeof v !== 'string' || v === '' || v === 'N/A') return 0;
  if (v.includes('/')) {
    const [a, b] = v.split('/').map(Number);
    return a !== undefined && b ? a / b : 0;
  }
  const n = Number(v);
  return Number.isFinite(n) ? n : 0;
};

export type RawStream = {
  codec_type?: string;
  codec_name?: string;
  profile?: string;
  pix_fmt?: string;
  width?: number;
  height?: number;
  sample_aspect_ratio?: string;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  nb_frames?: string;
  sample_rate?: string;
  channels?: number;
  duration?: string;
  tags?: Record<string, string>;
  side_data_list?: Array<{ rotation?: number }>;
  disposition?: { attached_pic?: number };
};

export type RawProbe = { streams?: RawStream[]; format?: { format_name?: string; duration?: string } };

/** ffprobe's JSON as a ProbeResult: displayed size (rotation and sample aspect ratio applied), rates, codecs. */
export function parseProbe(json: RawProbe, file: string): ProbeResult {
  const streams = json.streams ?? [];
  const v = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const a = streams.find((s) => s.codec_type === 'audio');
  if (!json.format?.format_name || (!v && !a))
    throw new MediaError('not_media', `no audio or video stream in ${basename(file)}`, { file });
  const rotRaw = v?.side_data_list?.find((d) => typeof d.rotation === 'number')?.rotation ?? num(v?.tags?.rotate);
  const rotation = (((Math.round(rotRaw / 90) * 90) % 360) + 360) % 360;
  const codedWidth = v?.width ?? 0;
  const codedHeight = v?.height ?? 0;
  const sar = num(v?.sample_aspect_ratio) || 1;
  let width = Math.round(codedWidth * sar);
  let height = codedHeight;
  if (rotation === 90 || rotation === 270) [width, height] = [height, width];
  return {
    durationSec: num(json.format.duration) || num(v?.duration) || num(a?.duration),
    width,
    height,
    fps: num(v?.avg_frame_rate) || num(v?.r_frame_rate),
    hasAudio: !!a,
    videoCodec: v?.codec_name ?? null,
    audioCodec: a?.codec_name ?? null,
    profile: v?.profile ?? null,
    pixFmt: v?.pix_fmt ?? null,
    sampleRate: num(a?.sample_rate),
    audioChannels: a?.channels ?? 0,
    formatName: json.format.format_name,
    rotation,
    codedWidth,
    codedHeight,
    frames: Math.round(num(v?.nb_frames)),
  };
}
