// The dictation bench's texts (issue 17). TEMPLATES are what an organisation's language model is
// built from (templates and earlier reports of a radiology group); SENTENCES are what is dictated:
// findings and impressions with measurements, in the same domain but never copied from the
// templates (the bench checks that none appears in them verbatim).

export const BENCH_TEMPLATES: readonly string[] = [
  `CT ABDOMEN AND PELVIS WITH CONTRAST
FINDINGS:
Liver: Normal in size and attenuation. No focal hepatic lesion.
There is a 2.1 cm hypoattenuating lesion in segment 7, in keeping with a simple cyst.
Gallbladder: No gallstones. No wall thickening. No pericholecystic fluid.
Biliary tree: No intrahepatic or extrahepatic biliary dilatation. The common bile duct measures 5 mm.
Pancreas: Normal. No peripancreatic fat stranding.
Spleen: Normal in size, measuring 11 cm.
Adrenal glands: Normal.
Kidneys: Both kidneys are normal in size. No hydronephrosis. A 4 mm non obstructing calculus in the lower pole of the left kidney.
Bowel: No bowel obstruction. The appendix is normal.
There is no free fluid and no free gas. No lymphadenopathy.
IMPRESSION:
No acute abnormality in the abdomen or pelvis.`,
  `CT CHEST WITH CONTRAST
FINDINGS:
The lungs are clear. No consolidation. No pleural effusion. No pneumothorax.
There is a 6 mm solid nodule in the right upper lobe.
A 3 mm ground glass nodule in the left lower lobe.
The airways are patent. Mild bronchial wall thickening.
The heart is normal in size. No pericardial effusion.
The thoracic aorta is normal in calibre, measuring 3.4 cm.
No mediastinal or hilar lymphadenopathy.
IMPRESSION:
Small pulmonary nodules. Follow up CT in 12 months is recommended.`,
  `CT PULMONARY ANGIOGRAM
There is a filling defect in the right lower lobe segmental pulmonary artery, consistent with pulmonary embolism.
No right heart strain. The right ventricle to left ventricle ratio is less than 1.
The main pulmonary artery measures 2.8 cm.
Small bilateral pleural effusions with adjacent atelectasis.
IMPRESSION:
Acute pulmonary embolism in the right lower lobe. No evidence of right heart strain.`,
  `CT HEAD WITHOUT CONTRAST
FINDINGS:
No acute intracranial haemorrhage. No acute infarct. No mass effect or midline shift.
The ventricles and sulci are normal for age.
Periventricular white matter hypodensities, in keeping with chronic small vessel ischaemic change.
The basal cisterns are patent. The grey white matter differentiation is preserved.
No skull fracture. The paranasal sinuses and mastoid air cells are clear.
IMPRESSION:
No acute intracranial abnormality.`,
  `MRI BRAIN
FINDINGS:
Scattered periventricular and subcortical white matter hyperintensities on FLAIR, likely chronic small vessel disease.
No restricted diffusion to suggest acute infarct.
No intracranial haemorrhage. No enhancing lesion.
There is a 1.2 cm extra axial enhancing lesion along the left frontal convexity, likely a meningioma.
The pituitary gland is normal. The orbits are unremarkable.
IMPRESSION:
Small left frontal meningioma. Chronic small vessel ischaemic change.`,
  `MRI LUMBAR SPINE
FINDINGS:
Normal lumbar lordosis. The vertebral body heights are maintained.
The conus terminates at L1.
At L4-5 there is a broad based disc bulge with mild bilateral neural foraminal narrowing.
At L5-S1 there is a left paracentral disc protrusion contacting the traversing left S1 nerve root.
Mild facet joint arthropathy at L4-5 and L5-S1.
No spinal canal stenosis.
IMPRESSION:
Left paracentral disc protrusion at L5-S1 with contact of the left S1 nerve root.`,
  `ULTRASOUND ABDOMEN
The liver is normal in size with a homogeneous echotexture. No focal liver lesion.
The gallbladder contains multiple gallstones, the largest measuring 1.5 cm. No gallbladder wall thickening.
The common bile duct measures 4 mm.
The right kidney measures 10.5 cm and the left kidney measures 11 cm. No hydronephrosis.
The spleen measures 9.8 cm.
The pancreas is obscured by bowel gas.
IMPRESSION:
Cholelithiasis without cholecystitis.`,
  `ULTRASOUND THYROID
The right lobe measures 4.5 x 1.6 x 1.4 cm. The left lobe measures 4.2 x 1.5 x 1.3 cm.
The isthmus measures 3 mm.
There is a solid hypoechoic nodule in the right lobe measuring 1.1 x 0.9 x 0.8 cm, with microcalcifications.
A 5 mm cystic nodule in the left lobe.
No cervical lymphadenopathy.
IMPRESSION:
Suspicious right thyroid nodule. Fine needle aspiration is recommended.`,
  `CHEST RADIOGRAPH
The heart size is normal. The mediastinum is not widened.
The lungs are clear. No focal consolidation, pleural effusion or pneumothorax.
Right lower zone consolidation, in keeping with pneumonia.
Blunting of the left costophrenic angle, suggesting a small pleural effusion.
No acute bony abnormality.`,
  `MRI KNEE
There is a complex tear of the posterior horn of the medial meniscus.
The anterior cruciate ligament is intact. The posterior cruciate ligament is intact.
The medial and lateral collateral ligaments are intact.
There is a moderate joint effusion. No bone marrow oedema.
Mild chondral thinning in the medial compartment.
IMPRESSION:
Complex tear of the posterior horn of the medial meniscus. Moderate joint effusion.`,
  `CT KIDNEYS URETERS BLADDER
There is a 6 mm calculus in the right proximal ureter with moderate right hydronephrosis.
Perinephric fat stranding on the right.
The left kidney is normal. No left hydronephrosis.
The bladder is partially distended and normal.
IMPRESSION:
Obstructing right proximal ureteric calculus with moderate hydronephrosis.`,
  `CT ABDOMEN FOLLOW UP
Compared with the prior study, the hepatic metastases have decreased in size.
The largest lesion in segment 8 now measures 2.4 cm, previously 3.6 cm.
The hypodense lesion in the pancreatic head is stable, measuring 1.8 cm.
There is new ascites. The portal vein is patent.
Enlarged para aortic lymph nodes, the largest measuring 1.6 cm in short axis.
IMPRESSION:
Partial response of hepatic metastases. New ascites.`,
  `MAMMOGRAPHY AND BREAST ULTRASOUND
The breasts are heterogeneously dense.
There is an irregular hypoechoic mass in the left breast at 2 o'clock, measuring 1.3 cm, with posterior acoustic shadowing.
No suspicious axillary lymph nodes.
IMPRESSION:
Suspicious left breast mass. Ultrasound guided biopsy is recommended.`,
  `CT ANGIOGRAM AORTA
The abdominal aorta is aneurysmal, measuring 5.2 cm in maximal diameter.
There is mural thrombus. No periaortic stranding or haematoma to suggest rupture.
The common iliac arteries measure 1.4 cm on the right and 1.2 cm on the left.
Moderate atherosclerotic calcification.
IMPRESSION:
Infrarenal abdominal aortic aneurysm measuring 5.2 cm, without rupture.`,
];

/** Dictated sentences (written form; the bench says them as a radiologist would). */
export const BENCH_SENTENCES: readonly string[] = [
  'The liver is normal in size with no focal lesion.',
  'There is a 3.2 cm hypoattenuating lesion in segment 6 of the liver.',
  'The gallbladder contains a single gallstone measuring 8 mm.',
  'The common bile duct measures 6 mm.',
  'No intrahepatic biliary dilatation.',
  'The spleen is normal in size, measuring 10 cm.',
  'Both kidneys are normal with no hydronephrosis.',
  'There is a 5 mm calculus in the lower pole of the right kidney.',
  'No free fluid or free gas in the abdomen.',
  'The appendix is visualised and is normal.',
  'There is a 9 mm solid nodule in the left upper lobe.',
  'A 4 mm ground glass nodule in the right lower lobe.',
  'There is a small right pleural effusion with adjacent atelectasis.',
  'There is no pneumothorax or pleural effusion.',
  'The heart is normal in size with no pericardial effusion.',
  'The thoracic aorta measures 3.8 cm.',
  'No mediastinal lymphadenopathy.',
  'Follow up CT in 6 months is recommended.',
  'There is a filling defect in the left lower lobe pulmonary artery.',
  'The main pulmonary artery measures 3.1 cm.',
  'There is no evidence of right heart strain.',
  'No acute intracranial haemorrhage or infarct.',
  'There is no midline shift.',
  'The ventricles are normal for age.',
  'Periventricular white matter hyperintensities in keeping with small vessel disease.',
  'There is a 1.5 cm enhancing lesion in the right frontal convexity.',
  'The pituitary gland is unremarkable.',
  'The paranasal sinuses are clear.',
  'At L3-4 there is a mild disc bulge.',
  'At L5-S1 there is a right paracentral disc protrusion.',
  'The traversing right S1 nerve root is contacted.',
  'No spinal canal or neural foraminal stenosis.',
  'The lumbar vertebral body heights are maintained.',
  'The right kidney measures 11.2 cm.',
  'The left kidney measures 10.8 cm.',
  'The largest gallstone measures 2.1 cm.',
  'There is no gallbladder wall thickening.',
  'The right thyroid lobe measures 4.8 x 1.7 x 1.5 cm.',
  'There is a hypoechoic nodule in the left lobe measuring 1.4 cm.',
  'There is no cervical or axillary lymphadenopathy.',
  'There is right lower zone consolidation.',
  'The heart size is normal and the mediastinum is not widened.',
  'There is a tear of the posterior horn of the lateral meniscus.',
  'The anterior and posterior cruciate ligaments are intact.',
  'There is a small joint effusion.',
  'There is a 4 mm calculus in the left distal ureter.',
  'There is mild left hydronephrosis.',
  'The largest liver lesion now measures 1.9 cm, previously 2.7 cm.',
  'The lymph nodes have decreased in size.',
  'The portal vein and the hepatic veins are patent.',
  'There is an irregular mass in the right breast measuring 1.6 cm.',
  'There are no suspicious lymph nodes.',
  'The abdominal aorta measures 4.6 cm.',
  'There is no periaortic haematoma.',
  'No acute abnormality.',
  'Biopsy is recommended.',
  'Moderate hydronephrosis of the right kidney.',
  'The pancreas is normal.',
  'There is mild bronchial wall thickening in both lower lobes.',
  'The lungs are clear with no consolidation.',
];
