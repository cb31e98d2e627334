/**
 * The name tables of the "below the line" population (negatives.ts): common given and family names
 * of each language, written in its script (from public name statistics and dictionaries). Data, kept
 * apart from the code that draws from it: each list is one string, its names separated by "|".
 */
export interface NameTable {
  locale: string;
  given: readonly string[];
  family: readonly string[];
  /** How a full name is written: given first (the default), family first, family first without a space. */
  order?: 'given-family' | 'family-given' | 'family-given-joined';
}

const table = (locale: string, given: string, family: string, order?: NameTable['order']): NameTable => ({
  locale,
  given: given.split('|'),
  family: family.split('|'),
  ...(order ? { order } : {}),
});

export const NAME_TABLES: readonly NameTable[] = [
  table(
    'en',
    'James|Emily|Oliver|Charlotte|Henry|Grace|Samuel|Lucy|Thomas|Hannah|Jack|Megan',
    'Thompson|Walker|Harris|Clarke|Wright|Robinson|Hughes|Edwards|Green|Hall|Wood|Turner',
  ),
  table(
    'es',
    'Alejandro|Lucía|Javier|Carmen|Sergio|Marta|Pablo|Elena|Diego|Paula|Andrés|Rocío',
    'García|Fernández|López|Martínez|Sánchez|Gómez|Ruiz|Díaz|Moreno|Álvarez|Romero|Navarro',
  ),
  table(
    'pt',
    'João|Beatriz|Tiago|Inês|Rafael|Mariana|Gonçalo|Leonor|Rodrigo|Carolina|Duarte|Matilde',
    'Silva|Santos|Ferreira|Pereira|Oliveira|Costa|Rodrigues|Martins|Sousa|Fernandes|Gonçalves|Carvalho',
  ),
  table(
    'de',
    'Lukas|Anna|Felix|Lena|Jonas|Marie|Maximilian|Sophie|Paul|Laura|Tobias|Katharina',
    'Müller|Schmidt|Schneider|Fischer|Weber|Meyer|Wagner|Becker|Schulz|Hoffmann|Koch|Richter',
  ),
  table(
    'fr',
    'Louis|Camille|Hugo|Chloé|Théo|Manon|Mathis|Léa|Nathan|Inès|Baptiste|Zoé',
    'Martin|Bernard|Dubois|Thomas|Robert|Richard|Petit|Durand|Leroy|Moreau|Simon|Laurent',
  ),
  table(
    'it',
    'Francesco|Giulia|Lorenzo|Chiara|Matteo|Francesca|Andrea|Sara|Riccardo|Martina|Tommaso|Alessia',
    'Rossi|Russo|Ferrari|Esposito|Bianchi|Romano|Colombo|Ricci|Marino|Greco|Bruno|Gallo',
  ),
  table(
    'pl',
    'Jakub|Zuzanna|Kacper|Julia|Szymon|Maja|Filip|Oliwia|Wojciech|Agnieszka|Bartosz|Magdalena',
    'Nowak|Kowalczyk|Wiśniewski|Wójcik|Kamiński|Lewandowski|Zieliński|Szymański|Woźniak|Dąbrowski|Kozłowski|Jankowski',
  ),
  table(
    'tr',
    'Emre|Zeynep|Burak|Elif|Can|Merve|Kaan|Ayşe|Onur|Büşra|Serkan|Gizem',
    'Yılmaz|Kaya|Demir|Şahin|Çelik|Yıldız|Yıldırım|Öztürk|Aydın|Özdemir|Arslan|Doğan',
  ),
  table(
    'vi',
    'Minh Anh|Thu Trang|Quốc Bảo|Ngọc Lan|Đức Huy|Thanh Hà|Gia Bảo|Phương Linh|Hoàng Nam|Bích Ngọc',
    'Nguyễn|Trần|Lê|Phạm|Hoàng|Huỳnh|Phan|Vũ|Võ|Đặng|Bùi|Đỗ',
    'family-given',
  ),
  table(
    'id',
    'Budi|Siti|Agus|Dewi|Rudi|Sri|Hendra|Ratna|Eko|Wulan|Bayu|Indah',
    'Santoso|Wijaya|Setiawan|Kusuma|Pratama|Susanto|Hidayat|Saputra|Purnomo|Halim|Gunawan|Nugroho',
  ),
  table(
    'nl',
    'Daan|Emma|Sem|Tess|Bram|Sanne|Ruben|Fleur|Thijs|Lotte|Joris|Anouk',
    'de Jong|Jansen|de Vries|van den Berg|Bakker|Visser|Smit|Meijer|de Boer|Mulder|Bos|Vos',
  ),
  table(
    'sw',
    'Baraka|Neema|Juma|Upendo|Furaha|Zawadi|Imani|Amani|Jabari|Rehema|Tumaini|Bahati',
    'Mwangi|Otieno|Kamau|Wanjiku|Njoroge|Ochieng|Kiprono|Mutua|Achieng|Onyango|Kariuki|Chege',
  ),
  table(
    'ar',
    'يوسف|مريم|كريم|نور|طارق|ليلى|سامي|هدى|رامي|سلمى|وليد|رنا',
    'الحداد|النجار|الخطيب|العلي|الشامي|المصري|الزين|الحلبي|البيطار|الصباغ|القاسم|الدباغ',
  ),
  table(
    'fa',
    'آرش|نیلوفر|کاوه|شیرین|بهرام|پریسا|سیاوش|مهسا|فرهاد|لاله|داریوش|ترانه',
    'رضایی|محمدی|حسینی|احمدی|کریمی|موسوی|جعفری|صادقی|رحیمی|نوری|قاسمی|کاظمی',
  ),
  table(
    'zh',
    '伟|芳|娜|敏|静|丽|强|磊|洋|艳|勇|军|杰|娟|涛|明',
    '王|李|张|刘|陈|杨|黄|赵|吴|周|徐|孙|马|朱|胡|郭',
    'family-given-joined',
  ),
  table(
    'ja',
    'さくら|ひなた|あおい|ゆうと|はると|めい|りこ|そうた|ゆい|かいと|つむぎ|ひろと',
    '佐藤|鈴木|高橋|田中|伊藤|渡辺|山本|中村|小林|加藤|吉田|山田',
    'family-given',
  ),
  table(
    'ko',
    '민준|서연|도윤|지우|하준|서윤|시우|하은|지호|수아|예준|지민',
    '김|이|박|최|정|강|조|윤|장|임|한|오',
    'family-given-joined',
  ),
  table(
    'ru',
    'Александр|Анна|Дмитрий|Мария|Сергей|Елена|Андрей|Ольга|Михаил|Татьяна|Никита|Ирина',
    'Смирнов|Кузнецов|Попов|Васильев|Соколов|Михайлов|Новиков|Фёдоров|Морозов|Волков|Лебедев|Козлов',
  ),
  table(
    'uk',
    'Олександр|Оксана|Андрій|Наталія|Богдан|Ірина|Тарас|Юлія|Василь|Галина|Остап|Соломія',
    'Шевченко|Бойко|Коваленко|Бондаренко|Ткаченко|Кравченко|Олійник|Шевчук|Поліщук|Мельник|Лисенко|Марченко',
  ),
  table(
    'bg',
    'Георги|Мария|Иван|Десислава|Николай|Цветелина|Петър|Радостина|Стоян|Гергана|Христо|Милена',
    'Иванов|Георгиев|Димитров|Петров|Николов|Христов|Стоянов|Тодоров|Илиев|Ангелов|Атанасов|Колев',
  ),
  table(
    'el',
    'Γιώργος|Μαρία|Νίκος|Ελένη|Κώστας|Κατερίνα|Δημήτρης|Σοφία|Γιάννης|Αγγελική|Παναγιώτης|Δέσποινα',
    'Παπαδόπουλος|Παππάς|Οικονόμου|Γεωργίου|Νικολάου|Καραγιάννης|Βασιλείου|Δημητρίου|Ιωάννου|Αθανασίου|Μακρής|Κωνσταντίνου',
  ),
  table(
    'he',
    'נועם|תמר|איתי|מיכל|יונתן|שירה|עומר|נועה|אורי|הילה|גיל|רוני',
    'כהן|לוי|מזרחי|פרץ|ביטון|דהן|אברהם|פרידמן|אזולאי|מלכה|שפירא|גבאי',
  ),
  table(
    'hi',
    'राहुल|प्रिया|अमित|नेहा|विकास|पूजा|संजय|अंजलि|रोहित|कविता|अजय|सुनीता',
    'शर्मा|वर्मा|गुप्ता|सिंह|कुमार|मिश्रा|यादव|पाण्डेय|जोशी|अग्रवाल|चौहान|तिवारी',
  ),
  table(
    'ta',
    'அருண்|கவிதா|செந்தில்|லக்ஷ்மி|முருகன்|பிரியா|கார்த்திக்|மீனா|சுரேஷ்|தேவி|ராஜேஷ்|வள்ளி',
    'சுப்பிரமணியன்|ராமசாமி|கிருஷ்ணன்|வேலு|பழனிசாமி|சண்முகம்|நடராஜன்|கணேசன்|ஆறுமுகம்|பாலசுப்பிரமணியம்|சிவகுமார்|அண்ணாமலை',
  ),
  table(
    'bn',
    'অনিক|তানিয়া|রাকিব|সুমাইয়া|শুভ|নুসরাত|সাকিব|ফারহানা|তানভীর|মিম|রিয়াদ|জান্নাত',
    'চৌধুরী|বসু|সরকার|দাস|ঘোষ|মজুমদার|ভট্টাচার্য|চক্রবর্তী|সেন|রায়|পাল|মণ্ডল',
  ),
  table(
    'th',
    'สมชาย|สมศรี|ประเสริฐ|มาลี|วิชัย|สุดา|ธนากร|พิมพ์ชนก|อนุชา|กาญจนา|ณัฐพล|รัตนา',
    'ศรีสุข|วงศ์สวัสดิ์|แก้วมณี|ทองดี|บุญมา|สุขสวัสดิ์|จันทร์เพ็ญ|รุ่งเรือง|มีสุข|ใจดี|พรหมมา|ศรีวงศ์',
  ),
  table(
    'hy',
    'Արամ|Անի|Դավիթ|Նարե|Տիգրան|Մարիամ|Գոռ|Լուսինե|Հայկ|Սոնա|Արմեն|Գայանե',
    'Հովհաննիսյան|Սարգսյան|Գրիգորյան|Պետրոսյան|Հարությունյան|Խաչատրյան|Կարապետյան|Վարդանյան|Մկրտչյան|Ավետիսյան|Ղազարյան|Առաքելյան',
  ),
  table(
    'ka',
    'გიორგი|ნინო|დავით|მარიამ|ლუკა|ანა|ნიკა|თამარ|ლევან|ეკატერინე|ირაკლი|სალომე',
    'ბერიძე|კაპანაძე|გელაშვილი|მაისურაძე|გიორგაძე|ლომიძე|წიკლაური|ბოლქვაძე|ნოზაძე|ხუციშვილი|შენგელია|ჯავახიშვილი',
  ),
];
