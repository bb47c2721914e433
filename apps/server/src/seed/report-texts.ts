// Report text of the demo's studies: a few realistic normal and abnormal reports for each kind of
// study the demo seeds (STUDY_KINDS), so that a CT chest reads as a chest and never as a brain.
// The seed picks one per report with its seeded random, so every install has the same reports.

export type TReportKind =
  | 'CT_HEAD'
  | 'CT_CHEST'
  | 'PETCT_WHOLE_BODY'
  | 'CT_ABDOMEN_PELVIS'
  | 'MR_BRAIN'
  | 'MR_LUMBAR_SPINE'
  | 'MR_KNEE'
  | 'US_ABDOMEN'
  | 'US_OBSTETRIC'
  | 'XR_CHEST'
  | 'XR_WRIST'
  | 'NM_BONE';

type TReportText = { findings: string[]; impression: string[] };

const normal = (findings: string[], impression: string): TReportText => ({
  findings,
  impression: [impression],
});

export const REPORT_TEXTS: Readonly<Record<TReportKind, readonly TReportText[]>> = {
  CT_HEAD: [
    normal(
      [
        'The cerebral parenchyma shows normal grey–white matter differentiation. No intra- or extra-axial haemorrhage.',
        'Ventricles and sulci are normal for age. Midline structures are central. Calvarium is intact.',
      ],
      'No acute intracranial abnormality.',
    ),
    {
      findings: [
        'A hypodense area in the left MCA territory involving the insular cortex and lentiform nucleus, with loss of grey–white differentiation.',
        'No haemorrhagic transformation. Mild effacement of the adjacent sulci; no midline shift.',
      ],
      impression: ['Acute left MCA territory infarct.', 'No intracranial haemorrhage.'],
    },
  ],
  CT_CHEST: [
    normal(
      [
        'Both lungs are clear, with no nodule, consolidation or interstitial thickening on high-resolution images.',
        'Airways are patent. No pleural or pericardial effusion. Mediastinal and hilar lymph nodes are not enlarged.',
      ],
      'Normal HRCT of the chest.',
    ),
    {
      findings: [
        'Bilateral peripheral and subpleural ground-glass opacities with interlobular septal thickening in both lungs, predominantly in the lower lobes.',
        'No pleural effusion. Subcentimetric mediastinal lymph nodes. Heart size is normal.',
      ],
      impression: [
        'Bilateral peripheral ground-glass opacities, likely infective or inflammatory.',
        'Clinical correlation advised.',
      ],
    },
    {
      findings: [
        'A 9 mm solid nodule in the apical segment of the right upper lobe with smooth margins.',
        'The remaining lung parenchyma is clear. No pleural effusion or lymphadenopathy.',
      ],
      impression: ['Solitary 9 mm right upper lobe pulmonary nodule; follow-up CT in 3 months.'],
    },
  ],
  PETCT_WHOLE_BODY: [
    normal(
      [
        'Physiological FDG distribution in the myocardium, liver, bowel and urinary tract.',
        'No FDG-avid lymph node, lung nodule, hepatic or skeletal lesion. Lungs are clear on the CT component.',
      ],
      'No scan evidence of FDG-avid disease.',
    ),
    {
      findings: [
        'An FDG-avid mass in the left lower lobe (SUVmax 11.2) measuring 3.1 × 2.6 cm.',
        'FDG-avid left hilar and subcarinal lymph nodes (SUVmax 6.4). No hepatic, adrenal or skeletal lesion.',
      ],
      impression: ['Metabolically active left lower lobe mass with hilar and mediastinal nodal disease.'],
    },
  ],
  CT_ABDOMEN_PELVIS: [
    normal(
      [
        'Liver, spleen, pancreas and adrenal glands are normal. No focal lesion after contrast.',
        'Both kidneys enhance symmetrically, without calculus or hydronephrosis. Bowel loops are normal in calibre. No free fluid.',
      ],
      'Normal contrast-enhanced CT of the abdomen and pelvis.',
    ),
    {
      findings: [
        'The appendix is dilated to 11 mm with wall enhancement and surrounding fat stranding; an appendicolith at its base.',
        'No collection or free air. Liver, kidneys and pancreas are normal.',
      ],
      impression: ['Acute appendicitis with an appendicolith, without perforation.'],
    },
  ],
  MR_BRAIN: [
    normal(
      [
        'Normal signal in the cerebral and cerebellar parenchyma. No restricted diffusion.',
        'No abnormal enhancement after gadolinium. Ventricles, basal cisterns and the pituitary are normal.',
      ],
      'Normal contrast-enhanced MRI of the brain.',
    ),
    {
      findings: [
        'Multiple T2/FLAIR hyperintense periventricular and juxtacortical white matter lesions, some perpendicular to the ventricles.',
        'Two lesions show ring enhancement after gadolinium. No restricted diffusion.',
      ],
      impression: ['White matter lesions in a pattern typical of demyelination, some active.'],
    },
  ],
  MR_LUMBAR_SPINE: [
    normal(
      [
        'Normal lumbar lordosis and vertebral body heights. Intervertebral discs are of normal height and signal.',
        'No disc herniation or canal stenosis. Conus ends at L1 with normal signal.',
      ],
      'Normal MRI of the lumbar spine.',
    ),
    {
      findings: [
        'Disc desiccation at L4–L5 with a posterocentral disc bulge indenting the thecal sac.',
        'Mild bilateral neural foraminal narrowing at L4–L5. Conus ends at L1.',
      ],
      impression: ['L4–L5 disc bulge with mild foraminal narrowing.', 'No cord compression.'],
    },
  ],
  MR_KNEE: [
    normal(
      [
        'Anterior and posterior cruciate ligaments are intact. Menisci are of normal morphology and signal.',
        'Collateral ligaments and the extensor mechanism are intact. No joint effusion or bone marrow oedema.',
      ],
      'Normal MRI of the right knee.',
    ),
    {
      findings: [
        'Complete tear of the anterior cruciate ligament with bone marrow oedema of the lateral femoral condyle and posterolateral tibial plateau.',
        'Oblique tear of the posterior horn of the medial meniscus. Moderate joint effusion.',
      ],
      impression: ['Complete ACL tear with a medial meniscal tear.'],
    },
  ],
  US_ABDOMEN: [
    normal(
      [
        'Liver is normal in size and echotexture. Gall bladder is well distended, without calculi.',
        'Pancreas, spleen and both kidneys are normal. No free fluid in the abdomen.',
      ],
      'Normal ultrasound of the abdomen.',
    ),
    {
      findings: [
        'Liver is normal in size with increased echogenicity. Multiple calculi in the gall bladder, the largest 12 mm; wall not thickened.',
        'Common bile duct is not dilated. Both kidneys are normal in size and echotexture.',
      ],
      impression: ['Grade I fatty liver.', 'Cholelithiasis without cholecystitis.'],
    },
  ],
  US_OBSTETRIC: [
    normal(
      [
        'Single live intrauterine fetus in cephalic presentation. Fetal heart rate 146 beats per minute.',
        'Biometry corresponds to 20 weeks 3 days. No structural anomaly seen. Placenta is posterior, not low-lying; liquor is adequate.',
      ],
      'Single live intrauterine pregnancy of about 20 weeks, without a detectable anomaly.',
    ),
    {
      findings: [
        'Single live intrauterine fetus; biometry corresponds to 21 weeks. Fetal heart rate 152 beats per minute.',
        'The placenta is anterior and low-lying, its lower edge 12 mm from the internal os. Liquor is adequate.',
      ],
      impression: ['Single live pregnancy of about 21 weeks with a low-lying placenta; rescan at 32 weeks.'],
    },
  ],
  XR_CHEST: [
    normal(
      [
        'Both lung fields are clear. Cardiothoracic ratio is within normal limits.',
        'Costophrenic angles are clear. Bony thorax is unremarkable.',
      ],
      'Normal chest radiograph.',
    ),
    {
      findings: [
        'Homogeneous opacity in the right lower zone with air bronchograms, obscuring the right hemidiaphragm.',
        'Left lung is clear. Cardiac size is normal. Blunting of the right costophrenic angle.',
      ],
      impression: ['Right lower lobe consolidation with a small pleural effusion.'],
    },
  ],
  XR_WRIST: [
    normal(
      [
        'No fracture or dislocation of the distal radius, ulna or carpal bones.',
        'Radiocarpal and distal radioulnar joints are congruent. Soft tissues are normal.',
      ],
      'Normal radiographs of the left wrist.',
    ),
    {
      findings: [
        'Transverse fracture of the distal radial metaphysis with dorsal angulation and impaction.',
        'Associated ulnar styloid fracture. Carpal bones are intact.',
      ],
      impression: [
        'Distal radius fracture with dorsal angulation (Colles type) and an ulnar styloid fracture.',
      ],
    },
  ],
  NM_BONE: [
    normal(
      [
        'Physiological tracer distribution throughout the skeleton.',
        'No focal area of abnormal increased or decreased uptake. Both kidneys are visualised.',
      ],
      'No scintigraphic evidence of skeletal metastases.',
    ),
    {
      findings: [
        'Multiple foci of increased tracer uptake in the thoracic and lumbar vertebrae, pelvis and left sixth rib.',
        'No uptake in the skull or long bones.',
      ],
      impression: ['Multiple skeletal foci consistent with metastases.'],
    },
  ],
};

/** The report's HTML: the study's name, then its findings and impression. */
export function reportHtml(title: string, text: TReportText): string {
  const paragraphs = text.findings.map((line) => `<p>${line}</p>`).join('');
  const impression =
    text.impression.length === 1
      ? `<p><strong>${text.impression[0] ?? ''}</strong></p>`
      : `<ul>${text.impression.map((line) => `<li>${line}</li>`).join('')}</ul>`;
  return `<h1>${title}</h1><h2>Findings</h2>${paragraphs}<h2>Impression</h2>${impression}`;
}
