// Static material for the demo organisation: people, facilities, studies, report texts, templates and
// macros. Plausible, clearly fictional, and varied enough to exercise search (accents, Indian names).
import type { TPriorityTag, TRadiologistUserType, TRole } from '@ris/domain';
import type { TReportKind } from './report-texts.ts';

export type TDemoAccount = {
  key: 'admin' | 'facilityAdmin' | 'radiologist' | 'reporter' | 'transcriptionist' | 'referrer';
  email: string;
  label: string;
  role: TRole;
  userType?: TRadiologistUserType;
  firstName: string;
  lastName: string;
  displayName: string;
  description?: string;
  /** Indexes into DEMO_FACILITIES; admins see all facilities without rows. */
  facilities: number[];
};

export const DEMO_ORGANISATION = { name: 'Demo Teleradiology', slug: 'demo-teleradiology' };

export const DEMO_FACILITIES = [
  { name: 'City General Hospital', code: 'CGH', timeZone: 'Asia/Kolkata', address: '12 MG Road, Pune' },
  { name: 'Lakeside Imaging Centre', code: 'LIC', timeZone: 'Asia/Kolkata', address: '4 Lake View, Bhopal' },
  { name: 'Northfield Diagnostics', code: 'NFD', timeZone: 'Europe/London', address: '9 Mill Lane, Leeds' },
] as const;

export const DEMO_ACCOUNTS: readonly TDemoAccount[] = [
  {
    key: 'admin',
    email: 'admin@demo.test',
    label: 'Administrator (all facilities)',
    role: 'ADMIN',
    firstName: 'Meera',
    lastName: 'Iyer',
    displayName: 'Meera Iyer',
    facilities: [],
  },
  {
    key: 'facilityAdmin',
    email: 'facility-admin@demo.test',
    label: 'Facility administrator (City General Hospital)',
    role: 'FACILITY_ADMIN',
    firstName: 'Rohan',
    lastName: 'Kapoor',
    displayName: 'Rohan Kapoor',
    facilities: [0],
  },
  {
    key: 'radiologist',
    email: 'radiologist@demo.test',
    label: 'Radiologist (all three facilities)',
    role: 'RADIOLOGIST',
    userType: 'RADIOLOGIST',
    firstName: 'Asha',
    lastName: 'Rao',
    displayName: 'Dr Asha Rao',
    description: 'MBBS, MD (Radiodiagnosis) · Consultant Radiologist',
    facilities: [0, 1, 2],
  },
  {
    key: 'reporter',
    email: 'reporter@demo.test',
    label: 'Radiologist of type REPORTER (CGH, LIC)',
    role: 'RADIOLOGIST',
    userType: 'REPORTER',
    firstName: 'Vikram',
    lastName: 'Sethi',
    displayName: 'Dr Vikram Sethi',
    description: 'MBBS, DNB (Radiology) · Reporting Radiologist',
    facilities: [0, 1],
  },
  {
    key: 'transcriptionist',
    email: 'transcriptionist@demo.test',
    label: 'Transcriptionist (CGH, LIC)',
    role: 'TRANSCRIPTIONIST',
    firstName: 'Neha',
    lastName: 'Joshi',
    displayName: 'Neha Joshi',
    facilities: [0, 1],
  },
  {
    key: 'referrer',
    email: 'referrer@demo.test',
    label: 'Referring physician',
    role: 'REFERRING_PHYSICIAN',
    firstName: 'Karan',
    lastName: 'Mehta',
    displayName: 'Dr Karan Mehta',
    facilities: [0],
  },
];

export const OTHER_REFERRING_PHYSICIANS = [
  'Dr Priya Nair',
  'Dr Samuel Okafor',
  'Dr Hélène Laurent',
  'Dr Arjun Reddy',
];

export const PATIENT_NAMES = [
  'Aarav Sharma',
  'Ananya Gupta',
  'Rahul Verma',
  'Priya Patel',
  'Sanjay Kulkarni',
  'Lakshmi Narayanan',
  'Mohammed Siddiqui',
  'Fatima Khan',
  'Gurpreet Singh',
  'Harpreet Kaur',
  'Suresh Babu',
  'Divya Menon',
  'Arjun Pillai',
  'Kavya Reddy',
  'Rajesh Choudhary',
  'Sunita Desai',
  'Vivek Banerjee',
  'Ishita Mukherjee',
  'Anil Deshpande',
  'Pooja Bhatt',
  'José Álvarez',
  'Zoë Müller',
  'Renée Dubois',
  'Søren Østergaard',
  'Chloé Lefèvre',
  'Ramón Peña',
  'Björn Ångström',
  'Ayşe Yılmaz',
  'Thomas Wright',
  'Emily Clarke',
  'Oliver Bennett',
  'Grace Thompson',
  'Daniel Hughes',
  'Amelia Foster',
  'Nikhil Jain',
  'Meenakshi Sundaram',
  'Tenzin Dorji',
  'Farhan Qureshi',
  'Bhavna Agarwal',
  'Kiran Hegde',
];

export type TStudyKind = {
  modality: string;
  description: string;
  bodyPart: string;
  series: [number, number];
  /** Which reports of REPORT_TEXTS describe this kind of study. */
  report: TReportKind;
};

/** Raw DICOM modality strings cover every variant of every modality group. */
export const STUDY_KINDS: readonly TStudyKind[] = [
  { modality: 'CT', description: 'CT Brain Plain', bodyPart: 'HEAD', series: [2, 4], report: 'CT_HEAD' },
  { modality: 'CT,SR', description: 'CT Chest HRCT', bodyPart: 'CHEST', series: [3, 6], report: 'CT_CHEST' },
  {
    modality: 'CT,PT,SR',
    description: 'PET-CT Whole Body',
    bodyPart: 'WHOLEBODY',
    series: [6, 12],
    report: 'PETCT_WHOLE_BODY',
  },
  {
    modality: 'CT',
    description: 'CT Abdomen and Pelvis with Contrast',
    bodyPart: 'ABDOMEN',
    series: [4, 8],
    report: 'CT_ABDOMEN_PELVIS',
  },
  {
    modality: 'MR',
    description: 'MRI Brain with Contrast',
    bodyPart: 'HEAD',
    series: [6, 10],
    report: 'MR_BRAIN',
  },
  {
    modality: 'MR,SR',
    description: 'MRI Lumbar Spine',
    bodyPart: 'LSPINE',
    series: [4, 7],
    report: 'MR_LUMBAR_SPINE',
  },
  { modality: 'MRI', description: 'MRI Right Knee', bodyPart: 'KNEE', series: [5, 8], report: 'MR_KNEE' },
  {
    modality: 'USG',
    description: 'USG Whole Abdomen',
    bodyPart: 'ABDOMEN',
    series: [1, 2],
    report: 'US_ABDOMEN',
  },
  {
    modality: 'USG',
    description: 'USG Obstetric (Anomaly Scan)',
    bodyPart: 'PELVIS',
    series: [1, 3],
    report: 'US_OBSTETRIC',
  },
  {
    modality: 'XRAY',
    description: 'X-Ray Chest PA View',
    bodyPart: 'CHEST',
    series: [1, 1],
    report: 'XR_CHEST',
  },
  {
    modality: 'X-RAY',
    description: 'X-Ray Left Wrist AP/Lateral',
    bodyPart: 'HAND',
    series: [1, 2],
    report: 'XR_WRIST',
  },
  { modality: 'NM', description: 'NM Bone Scan', bodyPart: 'WHOLEBODY', series: [1, 3], report: 'NM_BONE' },
];

export const PRIORITY_WEIGHTS: readonly (TPriorityTag | null)[] = [
  null,
  null,
  null,
  'ROUTINE',
  'ROUTINE',
  'URGENT',
  'EMERGENCY',
  'MLC',
  'FOLLOW_UP',
  'POST_SURGICAL',
  'ONCO',
  'COMPLEX',
  'COMPARATIVE',
];

export const CLINICAL_HISTORIES = [
  'Headache for 2 weeks, rule out space-occupying lesion.',
  'Fever and cough for 10 days.',
  'Road traffic accident, trauma evaluation.',
  'Known case of carcinoma breast, staging.',
  'Pain abdomen, right iliac fossa tenderness.',
  'Follow-up after surgery.',
  'Low back pain radiating to left leg.',
  null,
];

/** Report bodies by modality group, as the editor would produce them. */
export const REPORT_BODIES: Record<string, string> = {
  CT: '<h2>Findings</h2><p>The cerebral parenchyma shows normal grey–white matter differentiation. No intra- or extra-axial haemorrhage. Ventricles and sulci are normal for age. Midline structures are central.</p><h2>Impression</h2><p><strong>No acute intracranial abnormality.</strong></p>',
  MRI: '<h2>Findings</h2><p>Disc desiccation at L4–L5 with a posterocentral disc bulge indenting the thecal sac. Mild bilateral neural foraminal narrowing. Conus ends at L1.</p><h2>Impression</h2><ul><li>L4–L5 disc bulge with mild foraminal narrowing.</li><li>No cord compression.</li></ul>',
  USG: '<h2>Findings</h2><p>Liver is normal in size with increased echogenicity. Gall bladder is well distended, no calculi. Both kidneys are normal in size and echotexture.</p><h2>Impression</h2><p>Grade I fatty liver. Otherwise normal study.</p>',
  XRAY: '<h2>Findings</h2><p>Both lung fields are clear. Cardiothoracic ratio is within normal limits. Costophrenic angles are clear. Bony thorax is unremarkable.</p><h2>Impression</h2><p>Normal chest radiograph.</p>',
  NM: '<h2>Findings</h2><p>Physiological tracer distribution throughout the skeleton. No focal area of abnormal increased or decreased uptake.</p><h2>Impression</h2><p>No scintigraphic evidence of skeletal metastases.</p>',
};

export const DEMO_TEMPLATES = [
  {
    scope: 'DEFAULT',
    name: 'CT Brain – normal',
    modalityGroup: 'CT',
    bodyPart: 'HEAD',
    content: REPORT_BODIES.CT,
  },
  {
    scope: 'DEFAULT',
    name: 'Chest X-ray – normal',
    modalityGroup: 'XRAY',
    bodyPart: 'CHEST',
    content: REPORT_BODIES.XRAY,
  },
  {
    scope: 'DEFAULT',
    name: 'USG Abdomen – normal',
    modalityGroup: 'USG',
    bodyPart: 'ABDOMEN',
    content: REPORT_BODIES.USG,
  },
  {
    scope: 'ORGANISATION',
    name: 'MRI Lumbar Spine – house style',
    modalityGroup: 'MRI',
    bodyPart: 'LSPINE',
    content: REPORT_BODIES.MRI,
  },
  {
    scope: 'ORGANISATION',
    name: 'NM Bone Scan',
    modalityGroup: 'NM',
    bodyPart: 'WHOLEBODY',
    content: REPORT_BODIES.NM,
  },
  {
    scope: 'USER',
    name: 'My HRCT Chest',
    modalityGroup: 'CT',
    bodyPart: 'CHEST',
    content:
      '<h2>Technique</h2><p>Volumetric HRCT of the chest.</p><h2>Findings</h2><p></p><h2>Impression</h2><p></p>',
  },
] as const;

export const DEMO_MACROS = [
  { shortKey: 'nad', displayName: 'No abnormality detected', value: '<p>No abnormality detected.</p>' },
  {
    shortKey: 'nfl',
    displayName: 'Normal fatty liver line',
    value: '<p>Liver shows grade I fatty infiltration.</p>',
  },
  { shortKey: 'corr', displayName: 'Clinical correlation', value: '<p>Suggested clinical correlation.</p>' },
  {
    shortKey: 'fu6',
    displayName: 'Follow-up 6 months',
    value: '<p>Follow-up imaging in 6 months is advised.</p>',
  },
] as const;
